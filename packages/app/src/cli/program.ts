import { Command } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { ALLOW_PRIVATE_TARGETS_FLAG, JSON_FLAG, STORAGE_FLAGS } from "./common-flags.js";
import { addFlags, type FlagSpec, type FlagValues, readFlags } from "./flag-spec.js";
import { LETTER_DETAILS } from "./letter-details.js";
import { OPERATORS } from "./operators.js";
import { SERVE_FLAGS } from "./serve-flags.js";
import { WORKER_FLAGS } from "./worker-flags.js";

// This module only declares: every command's code is imported when that command runs, so
// `incasso keys list` loads neither the HTTP server nor the PDF engine (issue 17, start time).

/** A command that does something: its flags (one table), its arguments, and what runs. */
export interface Leaf {
  name: string;
  summary: string;
  args?: string[];
  flags: readonly FlagSpec[];
  run: (values: FlagValues, args: string[], root: Command) => Promise<void>;
}

const flag = (name: string, description: string, value?: string): FlagSpec =>
  value === undefined ? { name, description } : { name, value, description };

/** The flags of a command that works on the data: the storage flags and --json. */
const data = (...specs: FlagSpec[]): readonly FlagSpec[] => [...specs, JSON_FLAG, ...STORAGE_FLAGS];

const ORGANISATION = flag("organisation", "the organisation, as its keys name it", "NAME");
const LIMIT = flag("limit", "at most N rows", "N");

const KEYS: Leaf[] = [
  {
    name: "create",
    summary: "issue an API key; it is shown once",
    flags: data(
      ORGANISATION,
      flag("mode", "live or test", "MODE"),
      flag("creditor-name", "its linked creditor, when the organisation is new", "NAME"),
      flag("visibility", "own or organisation: which orders the key sees; default own", "V"),
      flag("creditor-management", "switch on GET/POST /creditors for the key"),
      flag("per-minute", "POST /orders per minute; default 30", "N"),
      flag("per-day", "POST /orders per day; default 500", "N"),
    ),
    run: async (v) => (await import("./keys.js")).keysCreate(v),
  },
  {
    name: "list",
    summary: "list keys (never the keys themselves)",
    flags: data(),
    run: async (v) => (await import("./keys.js")).keysList(v),
  },
  {
    name: "revoke",
    summary: "revoke a key",
    args: ["<id>"],
    flags: data(),
    run: async (v, [id]) => (await import("./keys.js")).keysRevoke(id as string, v),
  },
];

const UDF: Leaf[] = [
  {
    name: "set",
    summary: "define a custom case field",
    flags: data(
      ORGANISATION,
      flag("name", "the field's name", "FIELD"),
      flag("type", "text, number, boolean or date", "TYPE"),
    ),
    run: async (v) => (await import("./udf.js")).udfCommand("set", v),
  },
  {
    name: "list",
    summary: "the custom case fields of an organisation",
    flags: data(ORGANISATION),
    run: async (v) => (await import("./udf.js")).udfCommand("list", v),
  },
  {
    name: "remove",
    summary: "remove a custom case field",
    flags: data(ORGANISATION, flag("name", "the field's name", "FIELD")),
    run: async (v) => (await import("./udf.js")).udfCommand("remove", v),
  },
];

const webhooks = (sub: string) => async (v: FlagValues, args: string[]) =>
  (await import("./webhooks.js")).webhooksCommand(sub, v, args);

const WEBHOOKS: Leaf[] = [
  {
    name: "set",
    summary: "register the organisation's endpoint; a new secret is shown once",
    flags: data(
      ORGANISATION,
      flag("url", "the https:// endpoint", "URL"),
      flag("secret", "the signing secret; default: one is generated", "S"),
    ),
    run: webhooks("set"),
  },
  {
    name: "list",
    summary: "list endpoints (secrets as hints only)",
    flags: data(),
    run: webhooks("list"),
  },
  {
    name: "ping",
    summary: "send a ping event now; exit 1 when it was not delivered",
    flags: data(ORGANISATION, ALLOW_PRIVATE_TARGETS_FLAG),
    run: webhooks("ping"),
  },
  {
    name: "deliveries",
    summary: "events and their delivery state; --event shows its attempts",
    flags: data(
      flag("failed", "only events that failed for good"),
      ORGANISATION,
      LIMIT,
      flag("event", "the attempts of this event", "ID"),
    ),
    run: webhooks("deliveries"),
  },
  {
    name: "redeliver",
    summary: "send an event again with a fresh round of attempts",
    args: ["<event-id>"],
    flags: data(ALLOW_PRIVATE_TARGETS_FLAG),
    run: webhooks("redeliver"),
  },
];

const secrets = (sub: "status" | "rotate") => async (v: FlagValues) =>
  (await import("./secrets.js")).secretsCommand(sub, v);

// INCASSO_SECRET_KEY has no flag: a key on the command line shows in the process list
// (decision store-secrets-at-rest).
const SECRETS: Leaf[] = [
  {
    name: "status",
    summary: "how webhook secrets are stored: unencrypted or by key id",
    flags: data(),
    run: secrets("status"),
  },
  {
    name: "rotate",
    summary: "encrypt every webhook secret with the first key of INCASSO_SECRET_KEY",
    flags: data(),
    run: secrets("rotate"),
  },
];

const cases = (sub: string) => async (v: FlagValues, args: string[]) =>
  (await import("./cases.js")).casesCommand(sub, v, args);
const tasks = (sub: string) => async (v: FlagValues, args: string[]) =>
  (await import("./cases.js")).tasksCommand(sub, v, args);

const CASES: Leaf[] = [
  {
    name: "list",
    summary: "cases of the built-in case system, newest first",
    flags: data(
      ORGANISATION,
      flag("status", 'Nieuw, "In behandeling", Aangehouden or Gesloten', "STATUS"),
      flag("open", "open cases only"),
      flag("closed", "closed cases only"),
      LIMIT,
    ),
    run: cases("list"),
  },
  {
    name: "show",
    summary: "a case: invoices, payments, notes, tasks, letters, balance",
    args: ["<case>"],
    flags: data(),
    run: cases("show"),
  },
  {
    name: "pay",
    summary: "book a payment (sends payment.received)",
    args: ["<case>"],
    flags: data(
      flag("amount-cents", "the amount received, in cents: 1 or more", "N"),
      flag("date", "the day it was received; default today", "YYYY-MM-DD"),
      flag("task", "the payment report it answers, which is then done", "ID"),
    ),
    run: cases("pay"),
  },
  {
    name: "status",
    summary: 'set the status: Nieuw, "In behandeling", Aangehouden or Gesloten',
    args: ["<case>", "<status>"],
    flags: data(),
    run: cases("status"),
  },
  {
    name: "close",
    summary: "close the case (sends case.closed)",
    args: ["<case>"],
    flags: data(),
    run: cases("close"),
  },
  {
    name: "letter",
    summary: "make the 14-day letter, record it as sent and write the PDF",
    args: ["<case>"],
    flags: data(flag("out", "where to write the PDF; default: its name", "FILE")),
    run: cases("letter"),
  },
  {
    name: "letter-jobs",
    summary: "14-day letters not made yet, and those that failed for good",
    flags: data(
      flag("failed", "failed jobs only, as --state failed"),
      flag("state", "pending, running or failed", "STATE"),
      flag("case", "the jobs of one case", "CASE"),
      LIMIT,
    ),
    run: cases("letter-jobs"),
  },
  {
    name: "retry-letter",
    summary: "try a failed letter job again now, with fresh attempts",
    args: ["<order-id>"],
    flags: data(),
    run: cases("retry-letter"),
  },
];

const TASKS: Leaf[] = [
  {
    name: "list",
    summary: "tasks from control requests, oldest first",
    flags: data(
      flag("status", "open, done, rejected or all; default open", "STATUS"),
      flag("case", "the tasks of one case", "CASE"),
      ORGANISATION,
      LIMIT,
    ),
    run: tasks("list"),
  },
  {
    name: "done",
    summary: "resolve a task as done; the order's action shows done",
    args: ["<id>"],
    flags: data(flag("note", "a note on the task", "TEXT")),
    run: tasks("done"),
  },
  {
    name: "reject",
    summary: "reject a task; the order's action shows rejected",
    args: ["<id>"],
    flags: data(flag("reason", "why", "TEXT"), flag("note", "the same as --reason", "TEXT")),
    run: tasks("reject"),
  },
];

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
  addLeaf(
    root,
    {
      name: "migrate",
      summary: "apply pending database migrations and say which",
      flags: data(),
      run: async (v) => (await import("./migrate.js")).migrateCommand(v),
    },
    root,
  );
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
