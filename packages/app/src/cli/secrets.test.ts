import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const cli = cliProcesses();
const dirs: string[] = [];
afterAll(() => {
  cli.killAll("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const WARNING =
  "incasso: warning: --database-url holds a password, which any user of this machine can read in the process list; pass the URL in DATABASE_URL instead\n";
// Nothing listens on port 1: the command fails after the flag is read, without a database.
const NOWHERE = "127.0.0.1:1/incasso";

describe("incasso secrets and the storage flags", () => {
  it("serve says once, among its start lines, that secrets are stored unencrypted without a key", {
    timeout: 90_000,
  }, async () => {
    const dir = await newDataDir("incasso-secrets-serve-");
    dirs.push(dir);
    const proc = cli.start(
      [
        "serve",
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--no-webhook-dispatcher",
        "--no-letter-runner",
        "--data-dir",
        dir,
      ],
      { INCASSO_SECRET_KEY: "" },
    );
    const lines = await new Promise<{ level?: string; msg?: string }[]>((resolve, reject) => {
      let out = "";
      proc.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"msg":"data: ')) {
          resolve(
            out
              .split("\n")
              .filter((l) => l.startsWith("{"))
              .map((l) => JSON.parse(l) as { level?: string; msg?: string }),
          );
        }
      });
      proc.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    proc.kill("SIGTERM");
    const secrets = lines.filter((l) => l.msg?.startsWith("secrets: "));
    expect(secrets).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "secrets: INCASSO_SECRET_KEY is not set; webhook signing secrets are stored unencrypted (docs/operator.md, Secrets at rest)",
      }),
    ]);
    // The first line still names the URL; the last still names the data.
    expect(lines[0]?.msg).toMatch(/^incasso listening on /);
    expect(lines.at(-1)?.msg).toMatch(/^data: /);
  });

  it("warns once when --database-url holds a password, and not without one", {
    timeout: 60_000,
  }, async () => {
    const withPassword = await cli.run([
      "migrate",
      "--database-url",
      `postgres://incasso:hunter2@${NOWHERE}`,
    ]);
    expect(withPassword.code).toBe(1);
    expect(withPassword.err.startsWith(WARNING)).toBe(true);
    expect(withPassword.err.split(WARNING).length).toBe(2);
    const keyword = await cli.run([
      "keys",
      "list",
      "--database-url",
      `postgres://${NOWHERE}?password=hunter2`,
    ]);
    expect(keyword.err.startsWith(WARNING)).toBe(true);
    const without = await cli.run(["keys", "list", "--database-url", `postgres://incasso@${NOWHERE}`]);
    expect(without.code).toBe(1);
    expect(without.err).not.toContain("warning");
  });

  it("status and rotate: unencrypted rows are encrypted by rotate; without a key rotate refuses", {
    timeout: 120_000,
  }, async () => {
    const dir = await newDataDir("incasso-secrets-cli-");
    dirs.push(dir);
    const noKey = { INCASSO_SECRET_KEY: "" };
    const key = { INCASSO_SECRET_KEY: `k1:${randomBytes(32).toString("base64")}` };
    const flags = ["--data-dir", dir];
    expect(
      (await cli.run(["keys", "create", "--organisation", "Acme BV", "--mode", "test", ...flags], noKey))
        .code,
    ).toBe(0);
    const set = await cli.run(
      [
        "webhooks",
        "set",
        "--organisation",
        "Acme BV",
        "--url",
        "https://client.example/hook",
        "--secret",
        "whsec_given_0123456789abcdef",
        ...flags,
      ],
      noKey,
    );
    expect(set.code).toBe(0);

    const before = await cli.run(["secrets", "status", "--json", ...flags], noKey);
    expect(JSON.parse(before.out)).toEqual({
      total: 1,
      plain: 1,
      byKeyId: {},
      unknownKeyIds: [],
      key_id: null,
    });
    const refused = await cli.run(["secrets", "rotate", ...flags], noKey);
    expect(refused).toMatchObject({
      code: 1,
      err: "incasso: INCASSO_SECRET_KEY is not set: there is no key to encrypt the webhook secrets with.\n",
    });

    const rotated = await cli.run(["secrets", "rotate", ...flags], key);
    expect(rotated).toMatchObject({
      code: 0,
      out: "Encrypted 1 webhook secret with key k1; 0 already were.\n",
    });
    const after = await cli.run(["secrets", "status", ...flags], key);
    expect(after.out).toBe(
      "Webhook secrets: 1 (0 unencrypted, 1 under key k1).\nNew secrets are encrypted with key k1.\n",
    );
    const lacking = await cli.run(["secrets", "status", ...flags], noKey);
    expect(lacking.out).toBe(
      "Webhook secrets: 1 (0 unencrypted, 1 under key k1).\n" +
        "INCASSO_SECRET_KEY is not set: new secrets are stored unencrypted.\n" +
        "INCASSO_SECRET_KEY lacks key k1: those secrets cannot be read.\n",
    );
  });
});
