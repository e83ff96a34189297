import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGTERM");
  child = undefined;
});

function run(args: string[]) {
  child = spawn(process.execPath, ["--import", "tsx", cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return child;
}

function firstLine(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

describe("incasso CLI", () => {
  it("serve starts the API and prints its URL", async () => {
    const proc = run(["serve", "--port", "0", "--host", "127.0.0.1"]);
    const line = await firstLine(proc);
    const url = /incasso listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/.exec(line)?.[1];
    expect(url).toBeDefined();
    const res = await fetch(`${url}/ping`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", authenticated: false });
  });

  it("refuses an invalid port with exit code 1 and a clear message", async () => {
    const proc = run(["serve", "--port", "70000"]);
    let err = "";
    proc.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise((resolve) => proc.on("exit", resolve));
    expect(code).toBe(1);
    expect(err).toBe("incasso: --port must be an integer from 0 to 65535, not 70000\n");
  });

  it("an unknown command exits with 2 and shows the help", async () => {
    const proc = run(["frobnicate"]);
    let err = "";
    proc.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise((resolve) => proc.on("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain('incasso: unknown command "frobnicate"');
    expect(err).toContain("incasso serve [--port N] [--host H]");
  });
});
