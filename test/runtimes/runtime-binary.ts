import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A runtime's command line, or why it cannot run here. */
export type RuntimeBinary = { command: string[]; version: string } | { reason: string };

const require = createRequire(import.meta.url);

// The runtimes are devDependencies of this package, installed from npm like any other package:
// `bun` (its postinstall puts the platform's binary in place; pnpm runs it because the workspace
// allows it in onlyBuiltDependencies), `deno` (a node launcher that finds its platform package)
// and `workerd` (whose main export is the path of its platform's binary).
const commands: Record<"bun" | "deno" | "workerd", () => string[]> = {
  bun: () => [join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe")],
  deno: () => [process.execPath, require.resolve("deno/bin.cjs")],
  workerd: () => [(require("workerd") as { default: string }).default],
};

/**
 * The command that starts `name` here, checked by running `--version`, or the reason it cannot
 * run (not installed, no binary for this platform). With CI=true a missing runtime is an error:
 * CI proves the runtimes, it does not skip them.
 *
 * @example
 * const bun = runtimeBinary("bun");
 * if ("command" in bun) spawn(bun.command[0], [...bun.command.slice(1), "server.mjs"]);
 */
export function runtimeBinary(name: "bun" | "deno" | "workerd"): RuntimeBinary {
  let found: RuntimeBinary;
  try {
    const command = commands[name]();
    const [file = "", ...args] = command;
    const version = execFileSync(file, [...args, "--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    }).trim();
    found = { command, version };
  } catch (error) {
    found = { reason: `${name} cannot run here: ${(error as Error).message.split("\n")[0]}` };
  }
  if ("reason" in found && process.env.CI === "true") throw new Error(`CI=true: ${found.reason}`);
  return found;
}
