import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { completionTable } from "./completion.js";
import { allCommands, buildProgram, commandPath } from "./program.js";
import { SERVE_FLAGS } from "./serve-flags.js";
import { WORKER_FLAGS } from "./worker-flags.js";

describe("the incasso command tree", () => {
  it("gives every command and subcommand a help of at most 80 columns", () => {
    const commands = allCommands(buildProgram());
    expect(commands.map(commandPath)).toEqual([
      "",
      "serve",
      "worker",
      "migrate",
      "keys",
      "keys create",
      "keys list",
      "keys revoke",
      "udf",
      "udf set",
      "udf list",
      "udf remove",
      "webhooks",
      "webhooks set",
      "webhooks list",
      "webhooks ping",
      "webhooks deliveries",
      "webhooks redeliver",
      "secrets",
      "secrets status",
      "secrets rotate",
      "cases",
      "cases list",
      "cases show",
      "cases pay",
      "cases status",
      "cases close",
      "cases letter",
      "cases letter-jobs",
      "cases retry-letter",
      "tasks",
      "tasks list",
      "tasks done",
      "tasks reject",
      "operators",
      "operators create",
      "operators list",
      "operators revoke",
      "letter-details",
      "letter-details set",
      "letter-details show",
      "completion",
    ]);
    for (const command of commands) {
      const help = command.helpInformation();
      expect(help).toContain(`Usage: incasso${commandPath(command) ? ` ${commandPath(command)}` : ""}`);
      for (const line of help.split("\n"))
        expect(line.length, `${commandPath(command)}: ${line}`).toBeLessThanOrEqual(80);
    }
  });

  it("offers each command's subcommands and flags for completion", () => {
    const table = completionTable(buildProgram());
    expect(table.get("keys")).toEqual(["create", "list", "revoke", "--help"]);
    expect(table.get("keys revoke")).toEqual(["--json", "--data-dir", "--database-url", "--help"]);
  });

  it("lists every variable of serve and worker in docs/configuration.md", () => {
    const doc = readFileSync(new URL("../../../../docs/configuration.md", import.meta.url), "utf8");
    for (const spec of [...SERVE_FLAGS, ...WORKER_FLAGS]) {
      expect(doc, spec.name).toMatch(new RegExp(`\`--${spec.name}[ \`]`));
      if (spec.env) expect(doc, spec.env).toContain(`\`${spec.env}\``);
    }
  });
});
