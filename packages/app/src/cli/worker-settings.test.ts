import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addFlags, readFlags } from "./flag-spec.js";
import { workerSettings } from "./worker.js";
import { WORKER_FLAGS } from "./worker-flags.js";

function settings(args: string[], env: Record<string, string>) {
  const command = addFlags(new Command("worker").exitOverride(), WORKER_FLAGS);
  command.parse(args, { from: "user" });
  return workerSettings(readFlags(command, WORKER_FLAGS, env), env);
}

describe("workerSettings: the PostgreSQL time-outs (decision store-timeouts-and-keepalive)", () => {
  it("are the store's defaults when not set", () => {
    expect(settings([], {}).database).toEqual({});
  });

  it("come from the flags, else the INCASSO_DATABASE_* variables", () => {
    expect(
      settings(["--database-statement-timeout", "8"], {
        INCASSO_DATABASE_QUERY_TIMEOUT: "12",
        INCASSO_DATABASE_STATEMENT_TIMEOUT: "4",
      }).database,
    ).toEqual({ queryTimeoutMs: 12000, statementTimeoutMs: 8000 });
  });

  it("refuse a value that is not seconds with a usage error", () => {
    expect(() => settings([], { INCASSO_DATABASE_KEEPALIVE: "-5" })).toThrow(
      expect.objectContaining({
        name: "UsageError",
        message:
          "--database-keepalive (INCASSO_DATABASE_KEEPALIVE) must be a number of seconds above 0, not -5",
      }),
    );
  });
});
