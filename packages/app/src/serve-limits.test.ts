import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, describe, expect, it } from "vitest";

// The limits flags of `incasso serve` reach the server (decision server-slow-clients).
const cli = cliProcesses();
const dirs: string[] = [];
afterEach(() => cli.killAll("SIGTERM"));
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcess; url: string }> {
  const dir = await newDataDir("incasso-limits-");
  dirs.push(dir);
  const proc = cli.start(["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dir, ...args], env);
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/"url":"([^"]+)"/)?.[1];
      if (url && out.includes('"msg":"data: ')) resolve({ proc, url });
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

/** What the server sends on a fresh connection after `payload`, until it closes the connection. */
function exchange(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", (error) => (data ? undefined : reject(error)));
    socket.on("close", () => resolve(data));
    socket.write(payload);
  });
}

describe("incasso serve: limits from flags and INCASSO_* variables", () => {
  it("--headers-timeout and INCASSO_MAX_CONNECTIONS reach the server", { timeout: 90_000 }, async () => {
    const { url } = await serve(["--headers-timeout", "1"], { INCASSO_MAX_CONNECTIONS: "1" });
    const { hostname, port } = new URL(url);
    // The one connection allowed sends half a header and is cut after a second with 408.
    const held = exchange(url, "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n");
    await new Promise((r) => setTimeout(r, 200));
    // A second connection meanwhile is over the cap: 503 server_busy.
    const over = await exchange(url, `GET /api/v1/ping HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    expect(over).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(over).toContain("Retry-After: 1\r\n");
    expect(over).toContain('"code":"server_busy"');
    const cut = await held;
    expect(cut).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(cut).toContain('"code":"request_timeout"');
  });

  it("refuses a bad value with the usage exit code (2) and the flag named", async () => {
    const result = await cli.run(["serve", "--port", "0", "--body-budget", "0"]);
    expect(result.code).toBe(2);
    expect(result.err).toBe("incasso: --body-budget must be a positive whole number of MiB, not 0\n");
  });

  it("refuses an idempotency lease out of bounds with the usage exit code (2), naming flag and variable", async () => {
    const result = await cli.run(["serve", "--port", "0", "--idempotency-lease", "2"]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      "incasso: --idempotency-lease (INCASSO_IDEMPOTENCY_LEASE_SECONDS) must be a whole number of seconds from 5 to 3600, not 2\n",
    );
  });
});
