// Shared by the example suites (not a test file itself): an example's server or service started as
// its own node process, as a user starts it.
import { type ChildProcess, spawn } from "node:child_process";
import { basename } from "node:path";
import { PGLITE_CHILD_FLAGS } from "@incasso/test-utils";

/**
 * Starts `node SCRIPT` and resolves with the URL it prints once listening (`listening on URL`);
 * rejects with what it printed when it exits first. The suite's DATABASE_URL and INCASSO_DATA_DIR
 * (and the names in `omit`) are left out of its environment, so the test decides the storage;
 * HOST is 127.0.0.1 unless `env` says otherwise. The process is pushed on `children` at once, so
 * the suite's afterAll ends it even when it never listened. It runs with PGLITE_CHILD_FLAGS, as
 * the suite's other processes that may open PGlite do.
 *
 * @example
 * const host = await startNodeHost(join(root, "examples/minimal/server.mjs"), {
 *   cwd: root,
 *   env: { PORT: "0" },
 *   children,
 * });
 * await fetch(`${host.url}/ping`);
 */
export function startNodeHost(
  script: string,
  options: { cwd: string; env?: Record<string, string>; omit?: string[]; children: ChildProcess[] },
): Promise<{ child: ChildProcess; url: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "INCASSO_DATA_DIR", ...(options.omit ?? [])]) delete base[name];
  const child = spawn(process.execPath, [...PGLITE_CHILD_FLAGS, script], {
    cwd: options.cwd,
    env: { ...base, HOST: "127.0.0.1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  options.children.push(child);
  return listeningUrl(child, basename(script)).then((url) => ({ child, url }));
}

/**
 * The URL a started server prints once listening (`listening on URL`, on its stdout); rejects with
 * what it printed, stdout and stderr, when it exits first. `name` names it in that error.
 *
 * @example
 * const child = spawn("bun", ["examples/fetch-runtime/server.mjs"], { stdio: ["ignore", "pipe", "pipe"] });
 * const url = await listeningUrl(child, "the example under Bun");
 */
export function listeningUrl(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}: ${out}${err}`)));
  });
}

/**
 * How a process ended: its exit code, at once when it has already exited.
 *
 * @example
 * host.child.kill("SIGTERM");
 * expect(await exitCode(host.child)).toBe(0);
 */
export function exitCode(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
