import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGLITE_CHILD_FLAGS } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/your-first-order.md as a new user follows it (issue 31, item 2): its shell blocks, taken
// from the guide itself so this test breaks when the guide changes, run in bash as written against
// a fresh `incasso serve` from the built dist, on a data directory of its own and a free port. The
// guide's `pnpm start` is that server; `pnpm incasso` is the built CLI; a line that stands for a
// value the user copies (`TEST_KEY=svc_test_...`) takes the newest such value the user saw.

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "packages/app/dist/cli.js");
const guide = readFileSync(join(root, "docs/your-first-order.md"), "utf8");
const shellBlocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The user's own environment, without what would point the server or CLI elsewhere.
const {
  DATABASE_URL: _databaseUrl,
  INCASSO_DATABASE_URL: _incassoDatabaseUrl,
  INCASSO_DATA_DIR: _dataDir,
  INCASSO_PORT: _incassoPort,
  PORT: _port,
  ...userEnv
} = process.env;

describe("docs/your-first-order.md, followed on a fresh server", { timeout: 180_000 }, () => {
  let dir: string;
  let server: ChildProcess;
  let port: number;
  let serverLog = "";
  const logFile = () => join(dir, "server.log");

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error("packages/app/dist is missing: run `pnpm build` before this test");
    dir = mkdtempSync(join(tmpdir(), "incasso-first-order-"));
    port = await freePort();
    // Output to a pipe: the server writes JSON lines (the guide says where the key is then).
    server = spawn(process.execPath, [...PGLITE_CHILD_FLAGS, cli, "serve"], {
      cwd: dir,
      env: { ...userEnv, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => {
      serverLog += chunk.toString();
      writeFileSync(logFile(), serverLog);
    };
    server.stdout?.on("data", keep);
    server.stderr?.on("data", keep);
    const started = Date.now();
    // Listening, and the start's remark about letter details, which follows it.
    while (!serverLog.includes("incasso listening on") || !serverLog.includes("letters: no IBAN")) {
      if (server.exitCode !== null) throw new Error(`incasso serve ended: ${serverLog}`);
      if (Date.now() - started > 120_000) throw new Error(`incasso serve did not start: ${serverLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 150_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const ended = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await ended;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("starts as step 1 says, and every later command works as the guide shows, making the 14-day letter", async () => {
    // Step 1 is the server this test started; the guide must still say to start it that way.
    expect(shellBlocks[0]).toBe("pnpm install\npnpm start\n");
    expect(guide).toContain("BASE=http://127.0.0.1:3000/api/v1");
    const steps = shellBlocks.slice(1);
    expect(steps.length).toBeGreaterThanOrEqual(8);

    // The warning at start is the one the guide quotes.
    const quoted = /WARN: (letters: no IBAN for Demo[^\n]*)/.exec(guide)?.[1] as string;
    const lines = serverLog
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.filter((l) => l.level === "warn").map((l) => l.msg)).toContain(quoted);

    const transcript = join(dir, "transcript.log");
    const script = [
      'pnpm() { if [ "$1" = incasso ]; then shift; node "$INCASSO_CLI" "$@"; else echo "pnpm $* is not in this test" >&2; return 97; fi; }',
      // The newest value of a kind the user has seen (the server's log, then the commands' output).
      'seen() { cat "$SERVER_LOG" "$TRANSCRIPT" | grep -oE "$1[A-Za-z0-9]+" | tail -1; }',
      ...steps.map((block, i) => {
        const body = block
          .replaceAll("127.0.0.1:3000", `127.0.0.1:${port}`)
          // `NAME=prefix...   # the key the server printed`: the user pastes what they saw.
          .replace(/^([A-Z_]+)=([a-z_]+)\.\.\.[^\n]*$/gm, '$1=$(seen "$2")');
        return `echo "### step ${i + 1}"\n${body}\necho`;
      }),
    ].join("\n");
    writeFileSync(join(dir, "guide.sh"), script);
    writeFileSync(transcript, "");
    const code = await new Promise<number | null>((resolve) => {
      const bash = spawn("bash", ["-c", `bash guide.sh >> "${transcript}" 2>&1`], {
        cwd: dir,
        env: { ...userEnv, INCASSO_CLI: cli, SERVER_LOG: logFile(), TRANSCRIPT: transcript },
        stdio: "ignore",
      });
      bash.on("exit", resolve);
    });
    const out = readFileSync(transcript, "utf8");
    expect({ code, out }).toMatchObject({ code: 0 });
    const step = (n: number) => out.split(`### step ${n}\n`)[1]?.split("### step")[0] ?? "";

    // Ping with the test key.
    expect(step(1)).toContain(
      '"authenticated":true,"client":{"name":"Demo","mode":"test","creditor":"Demo"}',
    );
    // Letter details set and shown.
    expect(step(2)).toMatch(/NL91 ?ABNA ?0417 ?1643 ?00/);
    expect(step(2)).not.toMatch(/error|usage/i);
    // The test order: checked, no case.
    expect(step(4)).toContain('"case":{"case_number":null,"new":true}');
    expect(step(4)).toContain('"code":"test_mode"');
    // The mistake: a 422 with every violation.
    expect(step(5)).toContain('"status":422');
    expect(step(5)).toContain('"field":"invoices[0].due_date","code":"one_of_required"');
    // The live order opens the first case.
    const live = /"case":\{"case_number":"(\d{4}-000001)","new":true\}/.exec(step(6));
    expect(live).not.toBeNull();
    const caseNumber = live?.[1] as string;
    expect(step(6)).toContain('"warnings":[]');
    const orderId = /"id":"(ord_[0-9a-f]+)"/.exec(step(6))?.[1] as string;
    // Read and listed: the live case.
    expect(step(8)).toContain(
      `"case":{"case_number":"${caseNumber}","new":true,"status":"Nieuw","open":true}`,
    );
    expect(step(8)).toContain(`"id":"${orderId}"`);
    // The follow-up joins the case.
    expect(step(9)).toContain(`"case":{"case_number":"${caseNumber}","new":false}`);
    expect(step(9)).toContain('"code":"attached_to_existing_case"');
    // Steering: a payment report and a hold, both on the order.
    expect(step(10)).toContain('"object":"order_action","action":"payments","status":"requested"');
    expect(step(10)).toContain('"action":"hold"');

    // The promised letter: made by the server's letter runner, since the details were set first.
    const show = async () =>
      new Promise<string>((resolve) => {
        const child = spawn(
          process.execPath,
          [...PGLITE_CHILD_FLAGS, cli, "cases", "show", caseNumber, "--json"],
          {
            cwd: dir,
            env: userEnv,
            stdio: ["ignore", "pipe", "ignore"],
          },
        );
        let text = "";
        child.stdout?.on("data", (c: Buffer) => {
          text += c.toString();
        });
        child.on("exit", () => resolve(text));
      });
    let letters: { order_id?: string; filename: string }[] = [];
    for (let i = 0; i < 60 && letters.length === 0; i++) {
      const text = await show();
      letters = text.startsWith("{") ? (JSON.parse(text) as { letters: typeof letters }).letters : [];
      if (letters.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(letters.length).toBeGreaterThanOrEqual(1);
    expect(letters[0]?.filename).toMatch(/^aanmaning-.*\.pdf$/);
    // No letter job failed, and nothing was logged as an error.
    expect(serverLog).not.toContain("14-day letter failed");
    expect(
      serverLog
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .filter((l) => ["error", "fatal"].includes((JSON.parse(l) as { level: string }).level)),
    ).toEqual([]);
  });
});
