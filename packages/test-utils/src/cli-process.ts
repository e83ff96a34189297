import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PGLITE_CHILD_FLAGS } from "./node-flags.js";

/**
 * What a CLI command printed and how it ended.
 *
 * @example
 * const { code, out } = await cli.run(["keys", "list", "--data-dir", dir]);
 */
export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs the `incasso` CLI in child processes, as an operator would, and keeps track of them so a
 * test can end them all. It runs the built CLI (packages/app/dist/cli.js) when INCASSO_TEST_CLI is
 * `built`, which the suite's global setup sets when every package's build is up to date, and the
 * TypeScript source through tsx otherwise, with V8's baseline WebAssembly compiler only
 * (PGLITE_CHILD_FLAGS). The environment's DATABASE_URL,
 * INCASSO_DATABASE_URL, INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS, OPENAI_API_KEY and OPENAI_BASE_URL are removed,
 * so a test decides those with flags or its own variables.
 *
 * @example
 * const cli = cliProcesses();
 * afterAll(() => cli.killAll("SIGKILL"));
 * const { code, out } = await cli.run(["keys", "create", "--organisation", "Acme", "--mode", "test", "--data-dir", dir]);
 */
export function cliProcesses() {
  const command =
    process.env.INCASSO_TEST_CLI === "built"
      ? [fileURLToPath(new URL("../../app/dist/cli.js", import.meta.url))]
      : ["--import", "tsx", fileURLToPath(new URL("../../app/src/cli.ts", import.meta.url))];
  const children: ChildProcess[] = [];
  const {
    DATABASE_URL: _databaseUrl,
    INCASSO_DATABASE_URL: _incassoDatabaseUrl,
    INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS: _allowPrivate,
    OPENAI_API_KEY: _openaiKey,
    OPENAI_BASE_URL: _openaiBaseUrl,
    ...baseEnv
  } = process.env;

  /** Starts a command and returns its process; its output is piped. */
  function start(args: string[], env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [...PGLITE_CHILD_FLAGS, ...command, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...baseEnv, ...env },
    });
    children.push(child);
    return child;
  }

  /** Runs a command to its end. */
  function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
    const child = start(args, env);
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
  }

  /** Ends every process started so far. */
  function killAll(signal: NodeJS.Signals = "SIGTERM"): void {
    for (const child of children.splice(0)) child.kill(signal);
  }

  return { start, run, killAll };
}
