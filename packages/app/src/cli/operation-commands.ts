import type { OperationCli } from "../operations/operator-operation.js";
import {
  OPERATOR_OPERATIONS,
  type OperationMethod,
  operationEntry,
} from "../operations/operator-registry.js";
import { JSON_FLAG, STORAGE_FLAGS } from "./common-flags.js";
import type { FlagSpec, FlagValues } from "./flag-spec.js";

/**
 * A command made from the operator operations: its help from the operation's CLI shape, its run
 * loaded when it runs (issue 17, start time).
 *
 * @example
 * const [create] = operationCommands("keys"); // create.name === "create"
 */
export interface OperationCommand {
  name: string;
  summary: string;
  args?: string[];
  flags: readonly FlagSpec[];
  run: (values: FlagValues, args: string[]) => Promise<void>;
}

/**
 * The commands of a group (`keys`), or the command of its own named `command` without a group
 * (`migrate`), in the order of the registry. Operations that share a command (`webhooks
 * deliveries`) make one; its help is the one of the operation without `when`. Each takes `--json`
 * and the storage flags after its own.
 *
 * @example
 * const KEYS = operationCommands("keys");
 */
export function operationCommands(group: string | undefined, command?: string): OperationCommand[] {
  const byCommand = new Map<string, OperationMethod[]>();
  for (const method of Object.keys(OPERATOR_OPERATIONS) as OperationMethod[]) {
    const cli = operationEntry(method).cli as OperationCli<unknown, unknown> | undefined;
    if (cli === undefined || cli.group !== group || (command !== undefined && cli.command !== command))
      continue;
    byCommand.set(cli.command, [...(byCommand.get(cli.command) ?? []), method]);
  }
  return [...byCommand].map(([name, methods]) => {
    const main = methods
      .map((m) => operationEntry(m).cli as OperationCli<unknown, unknown>)
      .find((cli) => cli.when === undefined);
    if (main === undefined) throw new Error(`incasso ${name} has no operation without a condition`);
    return {
      name,
      summary: main.summary,
      ...(main.args ? { args: [...main.args] } : {}),
      flags: [...main.flags, JSON_FLAG, ...STORAGE_FLAGS],
      run: async (values, args) => (await import("./run-operation.js")).runOperation(methods, values, args),
    };
  });
}
