import { Command } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { addFlags, type FlagSpec, type FlagValues, readFlags } from "./flag-spec.js";
import { operationCommands } from "./operation-commands.js";
import { SERVE_FLAGS } from "./serve-flags.js";
import { WORKER_FLAGS } from "./worker-flags.js";

// This module only declares: every command's code is imported when that command runs, so
// `incasso keys list` loads neither the HTTP server nor the PDF engine (issue 17, start time).

/** A command that does something: its flags (one table), its arguments, and what runs. */
interface Leaf {
  name: string;
  summary: string;
  args?: string[];
  flags: readonly FlagSpec[];
  run: (values: FlagValues, args: string[], root: Command) => Promise<void>;
}

// The operator commands are made from the operator operations (operations/operator-registry.ts):
// a new operation with a CLI shape is a new command here.
const KEYS: Leaf[] = operationCommands("keys");
const UDF: Leaf[] = operationCommands("udf");
const WEBHOOKS: Leaf[] = operationCommands("webhooks");
const SECRETS: Leaf[] = operationCommands("secrets");
const CASES: Leaf[] = operationCommands("cases");
const TASKS: Leaf[] = operationCommands("tasks");
const OPERATORS: Leaf[] = operationCommands("operators");
const LETTER_DETAILS: Leaf[] = operationCommands("letter-details");

function addLeaf(parent: Command, leaf: Leaf, root: Command): Command {
  const command = parent.command(leaf.name).summary(leaf.summary).description(leaf.summary);
  for (const arg of leaf.args ?? []) command.argument(arg);
  addFlags(command, leaf.flags);
  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    await leaf.run(readFlags(self, leaf.flags), self.args, root);
  });
  return command;
}

function addGroup(root: Command, name: string, summary: string, leaves: Leaf[]): void {
  const group = root.command(name).summary(summary).description(summary);
  for (const leaf of leaves) addLeaf(group, leaf, root);
}

const AFTER_HELP = `
Every command takes --data-dir DIR (embedded PostgreSQL, default ./.data) or
--database-url URL (PostgreSQL). Commands work while a server runs on the same
data directory. Each flag that configures the service also reads an INCASSO_*
variable (docs/configuration.md); the flag wins.

Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 conflict.
Run incasso COMMAND --help for a command's flags.`;

/**
 * The `incasso` command tree: every command, its flags (one table each) and its help. Nothing of
 * a command's code is loaded until it runs.
 *
 * @example
 * await buildProgram().parseAsync(["keys", "list"], { from: "user" });
 */
export function buildProgram(setup?: (root: Command) => void): Command {
  const root = new Command("incasso");
  // Before the commands are added: they inherit the output and the exit handling.
  setup?.(root);
  root
    .description(`incasso ${pkg.version}: the debt-collection order API`)
    .version(pkg.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help of a command")
    // An 80-column terminal is the common narrow case; wider ones read 80 as well.
    .configureHelp({ helpWidth: 80, sortSubcommands: false })
    .addHelpText("after", AFTER_HELP);
  addLeaf(
    root,
    {
      name: "serve",
      summary: "start the API server (default http://127.0.0.1:3000/api/v1)",
      flags: SERVE_FLAGS,
      run: async (v) => (await import("./serve.js")).runServe(v),
    },
    root,
  ).addHelpText(
    "after",
    `
Probes at /healthz and /readyz. Logs are JSON lines (readable on a terminal).
OPENAI_API_KEY switches on the OpenAI document checker and title writer.`,
  );
  addLeaf(
    root,
    {
      name: "worker",
      summary: "deliver webhooks and make 14-day letters in a process of its own",
      flags: WORKER_FLAGS,
      run: async (v) => (await import("./worker.js")).workerCommand(v),
    },
    root,
  );
  for (const command of operationCommands(undefined, "migrate")) addLeaf(root, command, root);
  addGroup(root, "keys", "issue, list and revoke API keys", KEYS);
  addGroup(root, "udf", "custom case fields of an organisation", UDF);
  addGroup(root, "webhooks", "webhook endpoints and deliveries", WEBHOOKS);
  addGroup(root, "secrets", "webhook secrets at rest (INCASSO_SECRET_KEY)", SECRETS);
  addGroup(root, "cases", "the built-in case system: cases, payments, letters", CASES);
  addGroup(root, "tasks", "tasks from control requests", TASKS);
  addGroup(root, "operators", "operators of the console and their credentials", OPERATORS);
  addGroup(root, "letter-details", "sender, IBAN and contact printed on the 14-day letter", LETTER_DETAILS);
  addLeaf(
    root,
    {
      name: "completion",
      summary: "print a completion script: bash or zsh",
      args: ["<shell>"],
      flags: [],
      run: async (_v, [shell], program) =>
        (await import("./completion.js")).printCompletion(shell as string, program),
    },
    root,
  ).addHelpText(
    "after",
    `
bash: source <(incasso completion bash)   (or save it in
      /etc/bash_completion.d/incasso)
zsh:  source <(incasso completion zsh)    (in ~/.zshrc)`,
  );
  // A usage error names the help to read: all of it for the top level, else the command's.
  root.showHelpAfterError(true);
  for (const command of allCommands(root)) {
    if (command !== root)
      command.showHelpAfterError(`(incasso ${commandPath(command)} --help shows its usage)`);
  }
  return root;
}

/**
 * A command and every command below it.
 *
 * @example
 * allCommands(buildProgram()).length; // 42
 */
export function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((c) => allCommands(c))];
}

/**
 * The words after `incasso` that name a command: `keys create`.
 *
 * @example
 * commandPath(keysCreate); // "keys create"
 */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}
