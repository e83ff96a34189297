import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const cli = cliProcesses();
const { start, run } = cli;
const dirs: string[] = [];
afterEach(() => cli.killAll("SIGTERM"));
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A directory nothing was ever made in. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "incasso-cli-"));
  dirs.push(dir);
  return dir;
}

/** A new data directory whose cluster is initialised (no migration applied, no key). */
async function dataDir(): Promise<string> {
  const dir = await newDataDir("incasso-cli-");
  dirs.push(dir);
  return dir;
}

/** Starts `serve` and resolves with its first lines once it listens. */
function serve(args: string[]): Promise<{ proc: ChildProcess; lines: string[] }> {
  const proc = start(["serve", "--port", "0", "--host", "127.0.0.1", ...args]);
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"msg":"data: ')) resolve({ proc, lines: out.split("\n") });
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

describe("incasso CLI", () => {
  it("serve --no-pages --no-console serves neither the reference, the tool pages nor the console, and says so", {
    timeout: 90_000,
  }, async () => {
    const { lines } = await serve(["--data-dir", await dataDir(), "--no-pages", "--no-console"]);
    const entries = lines.filter((l) => l !== "").map((l) => JSON.parse(l) as { msg: string; url?: string });
    expect(entries.filter((e) => e.msg.startsWith("pages: ")).map((e) => e.msg)).toEqual(["pages: off"]);
    expect(entries.filter((e) => e.msg.startsWith("console: ")).map((e) => e.msg)).toEqual(["console: off"]);
    const url = String(entries[0]?.url);
    const origin = new URL(url).origin;
    expect((await fetch(`${url}/docs`)).status).toBe(404);
    expect((await fetch(`${origin}/tools/wik`)).status).toBe(404);
    expect((await fetch(`${origin}/console/inloggen`)).status).toBe(404);
    expect((await fetch(`${origin}/`, { redirect: "manual" })).status).toBe(404);
    expect((await fetch(`${url}/ping`)).status).toBe(200);
  });

  it("serve on an empty data directory creates one test key, prints it with a curl line, and authenticates it", {
    timeout: 90_000,
  }, async () => {
    const dir = tempDir();
    const { proc, lines } = await serve(["--data-dir", dir]);
    // Structured start lines (decision operations-logs); the first key is the one secret shown.
    const entries = lines.filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const url = String(entries[0]?.url);
    expect(entries[0]?.msg).toBe(`incasso listening on ${url}`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(entries[1]?.msg).toBe("created a test key for organisation Demo; it is shown only now");
    const key = String(entries[1]?.firstKey);
    expect(key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(entries[2]?.msg).toBe(`try: curl ${url}/ping, with the key as Authorization: Bearer`);
    const ping = await (await fetch(`${url}/ping`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(ping).toMatchObject({
      authenticated: true,
      client: { name: "Demo", mode: "test", creditor: "Demo" },
      features: { creditor_management: false },
    });
    expect(statSync(join(dir, "operator.json")).mode & 0o777).toBe(0o600);
    // The pages: / and /docs lead to them, the reference is below the base path.
    const origin = new URL(url).origin;
    const root = await fetch(`${origin}/`, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, "/tools"]);
    const reference = await fetch(`${url}/docs`);
    expect([reference.status, reference.headers.get("content-type")]).toEqual([
      200,
      "text/html; charset=utf-8",
    ]);

    // A second server on the same directory refuses with a clear message.
    const second = await run(["serve", "--port", "0", "--data-dir", dir]);
    expect(second.code).toBe(1);
    expect(second.err).toContain(`The data directory ${dir} is in use by process ${proc.pid} (incasso serve`);

    // CLI commands work while the server runs, through its operator endpoint.
    const created = await run([
      "keys",
      "create",
      "--organisation",
      "Acme BV",
      "--creditor-name",
      "Acme Creditor BV",
      "--mode",
      "live",
      "--creditor-management",
      "--per-minute",
      "60",
      "--json",
      "--data-dir",
      dir,
    ]);
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.out) as Record<string, unknown>;
    expect(issued).toMatchObject({
      key: expect.stringMatching(/^svc_live_[0-9A-Za-z]{32}$/),
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      organisation: "Acme BV",
      creditor_name: "Acme Creditor BV",
      mode: "live",
      visibility: "own",
      creditor_management: true,
      per_minute: 60,
      per_day: 500,
      organisation_created: true,
      revoked_at: null,
    });
    const pingLive = await (
      await fetch(`${url}/ping`, { headers: { authorization: `Bearer ${issued.key}` } })
    ).json();
    expect(pingLive).toMatchObject({
      client: { name: "Acme BV", mode: "live", creditor: "Acme Creditor BV" },
      features: { creditor_management: true },
    });

    const list = await run(["keys", "list", "--json", "--data-dir", dir]);
    const keys = JSON.parse(list.out) as { id: string; organisation: string }[];
    expect(keys.map((k) => k.organisation)).toEqual(["Demo", "Acme BV"]);
    expect(list.out).not.toContain(String(issued.key));

    const revoked = await run(["keys", "revoke", String(issued.id), "--data-dir", dir]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(new RegExp(`^Revoked ${issued.id} \\(Acme BV\\) at `));
    const creditors = await fetch(`${url}/creditors`, { headers: { authorization: `Bearer ${issued.key}` } });
    expect(creditors.status).toBe(401);

    const udfSet = await run([
      "udf",
      "set",
      "--organisation",
      "Acme BV",
      "--name",
      "contract_id",
      "--type",
      "date",
      "--data-dir",
      dir,
    ]);
    expect(udfSet.out).toBe("Field contract_id (date) is set for Acme BV.\n");
    const udfList = await run(["udf", "list", "--organisation", "Acme BV", "--json", "--data-dir", dir]);
    expect(JSON.parse(udfList.out)).toEqual([{ name: "contract_id", type: "date" }]);
    const migrate = await run(["migrate", "--data-dir", dir]);
    expect(migrate.out).toBe(`The schema is up to date (${dir}).\n`);

    // Stopped, the server leaves no lock behind and the CLI opens the directory itself.
    proc.kill("SIGTERM");
    await new Promise((r) => proc.on("exit", r));
    const after = await run([
      "udf",
      "remove",
      "--organisation",
      "Acme BV",
      "--name",
      "contract_id",
      "--data-dir",
      dir,
    ]);
    expect(after.code).toBe(0);
    expect(after.out).toBe("Field contract_id is removed for Acme BV.\n");
  });

  it("keys create without a server opens the directory itself; errors are clear", {
    timeout: 60_000,
  }, async () => {
    const dir = await dataDir();
    const missing = await run(["keys", "create", "--organisation", "X", "--data-dir", dir]);
    // A command line the CLI refuses is a usage error (decision cli-exit-codes).
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("incasso: --mode is required\n");
    const badMode = await run(["keys", "create", "--organisation", "X", "--mode", "prod", "--data-dir", dir]);
    expect(badMode.err).toBe("incasso: --mode must be live or test, not prod\n");
    const created = await run([
      "keys",
      "create",
      "--organisation",
      "Solo",
      "--mode",
      "test",
      "--data-dir",
      dir,
    ]);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(
      /^Created organisation Solo \(creditor Solo\)\.\nAPI key key_[0-9a-f]{16} {2}svc_test_…[0-9A-Za-z]{4} {2}Solo \(Solo\) {2}test own 30\/min 500\/day\n/,
    );
    // The key id is printed once (issue 17).
    expect(created.out.match(/key_[0-9a-f]{16}/g)).toHaveLength(1);
    expect(created.out).toMatch(/\nsvc_test_[0-9A-Za-z]{32}\n$/);
    const unknown = await run(["keys", "revoke", "key_0000000000000000", "--data-dir", dir]);
    expect(unknown.code).toBe(3);
    expect(unknown.err).toBe("incasso: No API key with id key_0000000000000000.\n");
    const udf = await run([
      "udf",
      "set",
      "--organisation",
      "Nobody",
      "--name",
      "n",
      "--type",
      "text",
      "--data-dir",
      dir,
    ]);
    expect(udf.err).toContain('incasso: No organisation "Nobody".');
    expect(udf.code).toBe(3);
  });

  it("refuses an invalid port with the usage exit code and a clear message", async () => {
    const result = await run(["serve", "--port", "70000"]);
    expect(result.code).toBe(2);
    expect(result.err).toBe("incasso: --port must be an integer from 0 to 65535, not 70000\n");
  });

  it("a port already in use ends serve with exit code 1 and releases the data directory", {
    timeout: 90_000,
  }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const dir = await dataDir();
    try {
      const result = await run(["serve", "--port", String(port), "--data-dir", dir]);
      expect(result.code).toBe(1);
      expect(result.err).toContain("EADDRINUSE");
      // The workers and the operator endpoint were stopped: the directory opens again at once.
      const keys = await run(["keys", "list", "--json", "--data-dir", dir]);
      expect(keys.code).toBe(0);
      expect(JSON.parse(keys.out)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("an unknown command exits with 2 and shows the help", async () => {
    const result = await run(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^incasso: unknown command 'frobnicate'\n/);
    expect(result.err).toContain("Usage: incasso [options] [command]");
    expect(result.err).toContain("  keys                issue, list and revoke API keys\n");
  });
});
