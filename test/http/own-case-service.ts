// Shared by the suites of examples/own-case-system (not a test file itself): its case service
// started as its own process, on a file in a fresh directory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const example = fileURLToPath(new URL("../../examples/own-case-system/", import.meta.url));

/**
 * Starts examples/own-case-system/case-service.mjs and resolves once it listens.
 *
 * @example
 * const service = await startOwnCaseService();
 * await fetch(`${service.url}/cases`);
 * await service.stop();
 */
export function startOwnCaseService(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "incasso-case-service-"));
  const child = spawn(process.execPath, [join(example, "case-service.mjs")], {
    env: {
      ...process.env,
      CASE_SERVICE_PORT: "0",
      HOST: "127.0.0.1",
      CASE_SERVICE_FILE: join(dir, "cases.json"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child, stop });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`case service exited with ${code}: ${out}`)));
  });
}

/** The example's modules; it is plain JavaScript without type declarations. */
export interface OwnCaseSystemModule {
  createHttpCaseSystem(options: {
    baseUrl: string;
    timeoutMs?: number;
    retries?: number;
    retryDelayMs?: number;
  }): import("@incasso/core").CaseSystem;
  startCaseFeed(options: {
    baseUrl: string;
    reporter: import("@incasso/case-system").CaseReporter;
    intervalMs?: number;
  }): { pump(): Promise<number>; stop(): Promise<void> };
}

/**
 * Imports examples/own-case-system/app.mjs.
 *
 * @example
 * const { createHttpCaseSystem } = await ownCaseSystemModule();
 */
export async function ownCaseSystemModule(): Promise<OwnCaseSystemModule> {
  return (await import(
    new URL("../../examples/own-case-system/app.mjs", import.meta.url).href
  )) as OwnCaseSystemModule;
}
