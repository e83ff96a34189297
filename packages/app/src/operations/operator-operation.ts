import type { CaseHandler } from "@incasso/case-system";
import type { SqlStore } from "@incasso/store-sql";
import type { FlagSpec, FlagValues } from "../cli/flag-spec.js";
import type { WebhookOperations, WebhookOperationsOptions } from "../webhooks/direct-webhook-operations.js";
import { checkInput, type InputFields } from "./operator-input.js";

/**
 * What an operation's handler works with on an open store: the store, the case handler of the
 * built-in case system, and the webhook operations with the sending settings of this process.
 *
 * @example
 * const run = (context: OperationContext) => context.cases.showCase({ case_number: "2026-000001" });
 */
export interface OperationContext {
  readonly store: SqlStore;
  readonly cases: CaseHandler;
  readonly webhooks: WebhookOperations;
  /** The id of the organisation named `name`; refused with `organisation_not_found` when none is. */
  organisationId(name: string): Promise<string>;
}

/**
 * How an operation is offered as an `incasso` command: its place, its help, how the flags and
 * arguments become the operation's input, and how the result is printed. Every such command takes
 * `--json` and the storage flags besides its own.
 *
 * @example
 * const cli: OperationCli<{ case_number: string }, CaseSummary> = {
 *   group: "cases", command: "close", summary: "close the case (sends case.closed)", args: ["<case>"], flags: [],
 *   input: (_values, positionals) => ({ case_number: positionals[0] as string }),
 *   text: (closed) => `${closed.case_number} is closed (${closed.status}).`,
 * };
 */
export interface OperationCli<I, O> {
  /** The command group (`cases`); absent for a command of its own (`incasso migrate`). */
  readonly group?: string;
  /** The command's name within its group (`close`), or the command itself without a group. */
  readonly command: string;
  /** One line of help. */
  readonly summary: string;
  /** The positional arguments as help shows them (`<case>`). */
  readonly args?: readonly string[];
  /** The command's own flags, without `--json` and the storage flags. */
  readonly flags: readonly FlagSpec[];
  /**
   * For a command that is several operations chosen by its flags: this operation runs when true
   * (`webhooks deliveries --event ID` lists attempts). The command's help comes from the operation
   * without `when`.
   */
  readonly when?: (values: FlagValues) => boolean;
  /**
   * How the command opens the store when no running server holds it: the webhook sending settings
   * of this process, or no migrations first (`incasso migrate` applies them itself).
   */
  readonly direct?: (values: FlagValues) => { webhooks?: WebhookOperationsOptions; migrate?: false };
  /**
   * The flags and arguments as the operation's input; a UsageError for wrong ones (exit code 2).
   * Asynchronous when a check needs domain code, imported then (`letter-details set` checks the
   * IBAN before the store opens).
   */
  input(values: FlagValues, positionals: string[]): I | Promise<I>;
  /** What the command does with the result before printing it (write the PDF, set the exit code). */
  effect?(result: O, input: I, values: FlagValues): void;
  /** What `--json` prints; default the result as it is. */
  json?(result: O, input: I, values: FlagValues): unknown;
  /** The lines a person reads, without the final newline. */
  text(result: O, input: I, values: FlagValues): string;
}

/**
 * One operator operation, written once: the operator endpoint's name for it, how a body sent there
 * becomes its input, its handler, and (optionally) its command. The direct call, the remote call
 * through the operator endpoint, the endpoint itself and the CLI are all derived from it
 * (operator-registry.ts). `P` are the arguments of its method on `OperatorOperations`.
 *
 * @example
 * const closeCase = defineOperation({
 *   name: "close-case",
 *   run: (context, input: { case_number: string }) => context.cases.closeCase(input),
 * });
 */
export interface OperatorOperation<I, O, P extends unknown[] = [input: I]> {
  /** `POST /operator/<name>` on the operator endpoint (docs/decisions/operator-endpoint.md). */
  readonly name: string;
  /**
   * The body sent to the endpoint as the input. Its JSON types are checked first (an
   * `OperatorInputError`, 422 `validation_error` on the endpoint); the handler's own schemas check
   * the values (the case handler's `invalid_request`, core's codes), the same on every path.
   */
  readonly input: (body: unknown) => I;
  /** The method's arguments as the input (what the remote call sends as its body). */
  readonly params: (...params: P) => I;
  /** The input as the method's arguments. */
  readonly args: (input: I) => P;
  /** The work, on an open store. */
  readonly run: (context: OperationContext, input: I) => Promise<O>;
  readonly cli?: OperationCli<I, O>;
}

/**
 * An operation of any input and result, as the registry holds them.
 *
 * @example
 * const byName = new Map<string, AnyOperation>();
 */
// biome-ignore lint/suspicious/noExplicitAny: a table of operations of every input and result type.
export type AnyOperation = OperatorOperation<any, any, any[]>;

/** The method's arguments: the input itself, or the input's fields named by `positional`. */
type ParamsOf<I, K> = K extends readonly string[]
  ? { -readonly [N in keyof K]: K[N] extends keyof I ? I[K[N]] : never }
  : [input: I];

/**
 * Declares an operation. Its method takes the input, or with `positional` the input's fields in
 * that order (`revokeKey(id)`; `[]` for none); the body sent to the endpoint must be a JSON object
 * whose `fields` have their JSON types, and is the input as it is, unless `input` decodes it
 * otherwise.
 *
 * @example
 * const revokeKey = defineOperation({
 *   name: "revoke-key",
 *   fields: { id: "string" },
 *   positional: ["id"],
 *   run: async (context, input: { id: string }) => revoke(context.store, input.id),
 * });
 */
export function defineOperation<I, O, const K extends readonly string[] | undefined = undefined>(definition: {
  name: string;
  /** The JSON types of the input's fields, checked on the endpoint before `input` runs. */
  fields?: InputFields;
  input?: (body: Record<string, unknown>) => I;
  positional?: K;
  run: (context: OperationContext, input: I) => Promise<O>;
  cli?: OperationCli<I, O>;
}): OperatorOperation<I, O, ParamsOf<I, K>> {
  const { positional, fields, input, ...rest } = definition;
  const keys = positional as readonly (keyof I & string)[] | undefined;
  return {
    input: (body) => {
      const checked = checkInput(definition.name, body, fields);
      return input === undefined ? (checked as I) : input(checked);
    },
    params: ((...params: unknown[]) =>
      keys === undefined
        ? params[0]
        : Object.fromEntries(keys.map((key, i) => [key, params[i]]))) as OperatorOperation<
      I,
      O,
      ParamsOf<I, K>
    >["params"],
    args: (input) => (keys === undefined ? [input] : keys.map((key) => input[key])) as ParamsOf<I, K>,
    ...rest,
  };
}
