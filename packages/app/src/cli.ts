import { CommanderError } from "commander";
import { type CliProblem, cliProblem, EXIT_CODES } from "./cli/exit-codes.js";
import { buildProgram } from "./cli/program.js";

// The `incasso` command. Exit codes and error output: decision cli-exit-codes.

const argv = process.argv.slice(2);
// Before the first `--`, so a value after it is never taken for the flag.
const json = argv.slice(0, argv.includes("--") ? argv.indexOf("--") : undefined).includes("--json");

function report(problem: CliProblem): void {
  process.stderr.write(json ? `${JSON.stringify(problem)}\n` : `incasso: ${problem.detail}\n`);
  process.exitCode = problem.exit_code;
}

const program = buildProgram((root) => {
  root.exitOverride();
  root.configureOutput({
    // With --json the CLI writes the one JSON problem itself; without, commander's message is
    // rewritten to the CLI's own form ("incasso: …") and its help hint follows.
    writeErr: (text) => {
      if (!json) process.stderr.write(text);
    },
    outputError: (text, write) => write(`incasso: ${text.replace(/^error: /, "")}`),
  });
});

program.parseAsync(argv, { from: "user" }).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // --help, --version and `incasso help [command]` end this way with exit code 0.
    if (error.exitCode === 0) {
      process.exitCode = EXIT_CODES.ok;
      return;
    }
    // Bare `incasso` (or `incasso keys`) printed the help to stderr: a usage error all the same.
    const detail =
      error.code === "commander.help"
        ? "a command is needed (incasso --help lists them)"
        : error.message.replace(/^error: /, "");
    if (json) report(cliProblem(Object.assign(new Error(detail), { code: "usage_error" })));
    process.exitCode = EXIT_CODES.usage;
    return;
  }
  report(cliProblem(error));
});
