import { withOperationCall } from "../internal/cli-store.js";
import type { OperationCli } from "../operations/operator-operation.js";
import { type OperationMethod, operationEntry } from "../operations/operator-registry.js";
import type { FlagValues } from "./flag-spec.js";
import { printJson } from "./print.js";

/**
 * Runs an operation's command: the flags and arguments become its input (a usage error before
 * anything opens), it runs through a running server or on the store opened here, and its result
 * is printed as text or, with `--json`, as JSON. Of several operations behind one command, the
 * first whose `when` holds runs, else the one without.
 *
 * @example
 * await runOperation(["closeCase"], { "data-dir": ".data" }, ["2026-000001"]);
 */
export async function runOperation(
  methods: readonly OperationMethod[],
  values: FlagValues,
  positionals: string[],
): Promise<void> {
  const cliOf = (m: OperationMethod) => operationEntry(m).cli as OperationCli<unknown, unknown>;
  const method =
    methods.find((m) => cliOf(m).when?.(values) === true) ??
    (methods.find((m) => cliOf(m).when === undefined) as OperationMethod);
  const cli = cliOf(method);
  const input = await cli.input(values, positionals);
  const result = await withOperationCall(
    values,
    cli.group ?? cli.command,
    (call) => call(method, input),
    cli.direct?.(values) ?? {},
  );
  cli.effect?.(result, input, values);
  if (values.json) printJson(cli.json ? cli.json(result, input, values) : result);
  else console.log(cli.text(result, input, values));
}
