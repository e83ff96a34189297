import type { WebhookOperations } from "../webhooks/direct-webhook-operations.js";
import {
  closeCase,
  listCases,
  listLetterJobs,
  payCase,
  retryLetterJob,
  sendCaseLetter,
  setCaseStatus,
  showCase,
} from "./case-operations.js";
import { createKey, listKeys, revokeKey } from "./key-operations.js";
import { setLetterDetails, showLetterDetails } from "./letter-details-operations.js";
import { migrate } from "./migrate-operation.js";
import { createOperator, listOperators, revokeOperator } from "./operator-account-operations.js";
import type { AnyOperation, OperatorOperation } from "./operator-operation.js";
import { rotateSecrets, secretsStatus } from "./secret-operations.js";
import { completeTask, listTasks, rejectTask } from "./task-operations.js";
import { listUdf, removeUdf, setUdf } from "./udf-operations.js";
import {
  listAttempts,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  redeliverWebhook,
  setWebhook,
} from "./webhook-operations.js";

/**
 * Every operator operation, by its method name. The direct call (`directOperations`), the
 * remote call (`remoteOperations`), the operator endpoint and the CLI commands are all made
 * from this table, so a new operation is one entry here (made with `defineOperation`); commands
 * appear in `incasso --help` in this order.
 *
 * @example
 * const closing = OPERATOR_OPERATIONS.closeCase; // name "close-case", command `incasso cases close`
 */
export const OPERATOR_OPERATIONS = {
  migrate,
  createKey,
  listKeys,
  revokeKey,
  setUdf,
  listUdf,
  removeUdf,
  setWebhook,
  listWebhooks,
  pingWebhook,
  listDeliveries,
  listAttempts,
  redeliverWebhook,
  secretsStatus,
  rotateSecrets,
  listCases,
  showCase,
  payCase,
  setCaseStatus,
  closeCase,
  sendCaseLetter,
  listLetterJobs,
  retryLetterJob,
  listTasks,
  completeTask,
  rejectTask,
  createOperator,
  listOperators,
  revokeOperator,
  setLetterDetails,
  showLetterDetails,
} as const;

type Table = typeof OPERATOR_OPERATIONS;

/**
 * The method name of an operation (`closeCase`).
 *
 * @example
 * const method: OperationMethod = "closeCase";
 */
export type OperationMethod = keyof Table;

// biome-ignore lint/suspicious/noExplicitAny: any input; the method's type comes from P and O.
type MethodOf<E> = E extends OperatorOperation<any, infer O, infer P> ? (...params: P) => Promise<O> : never;

/**
 * What the operator can do, the same whether the CLI opens the store itself or reaches a running
 * server through its operator endpoint (docs/decisions/operator-endpoint.md): one method per entry
 * of {@link OPERATOR_OPERATIONS}.
 *
 * @example
 * const { key } = await operations.createKey({ organisation: "Acme BV", mode: "test" });
 */
export type OperatorOperations = { [M in OperationMethod]: MethodOf<Table[M]> };

/**
 * Runs one operation with its input: on an open store, or through the operator endpoint.
 *
 * @example
 * const call: OperationCall = (method, input) => OPERATOR_OPERATIONS[method].run(context, input as never);
 */
export type OperationCall = (method: OperationMethod, input: unknown) => Promise<unknown>;

const METHODS = Object.keys(OPERATOR_OPERATIONS) as OperationMethod[];
const BY_NAME = new Map<string, OperationMethod>(METHODS.map((m) => [OPERATOR_OPERATIONS[m].name, m]));

/**
 * The operation the operator endpoint names `name` (`close-case`), or undefined.
 *
 * @example
 * operationNamed("close-case"); // "closeCase"
 */
export function operationNamed(name: string): OperationMethod | undefined {
  return BY_NAME.get(name);
}

/**
 * The entry of an operation, as the registry's code handles every entry alike.
 *
 * @example
 * const entry = operationEntry("closeCase");
 */
export function operationEntry(method: OperationMethod): AnyOperation {
  return OPERATOR_OPERATIONS[method] as AnyOperation;
}

/**
 * The operator operations as methods, each turning its arguments into its input and handing
 * that to `call`.
 *
 * @example
 * const operations = operationsOf((method, input) => send(OPERATOR_OPERATIONS[method].name, input));
 */
export function operationsOf(call: OperationCall): OperatorOperations {
  const operations: Record<string, unknown> = {};
  for (const method of METHODS) {
    const entry = operationEntry(method);
    operations[method] = (...params: unknown[]) => call(method, entry.params(...params));
  }
  return operations as OperatorOperations;
}

const WEBHOOK_METHODS = [
  "setWebhook",
  "listWebhooks",
  "pingWebhook",
  "listDeliveries",
  "listAttempts",
  "redeliverWebhook",
] as const satisfies readonly (keyof WebhookOperations)[];

/**
 * The webhook operations of a running server, through a caller of its operator endpoint.
 *
 * @example
 * const ops = remoteWebhookOperations((op, args) => call(op, args));
 */
export function remoteWebhookOperations(
  call: <T>(op: string, args?: unknown) => Promise<T>,
): WebhookOperations {
  const all = operationsOf((method, input) => call(operationEntry(method).name, input));
  return Object.fromEntries(WEBHOOK_METHODS.map((m) => [m, all[m]])) as unknown as WebhookOperations;
}

/**
 * Runs a webhook operation named on the operator endpoint; undefined for a name that is not one.
 *
 * @example
 * const result = await dispatchWebhookOperation(operations, "list-webhooks", {});
 */
export async function dispatchWebhookOperation(
  operations: WebhookOperations,
  op: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const method = WEBHOOK_METHODS.find((m) => OPERATOR_OPERATIONS[m].name === op);
  if (method === undefined) return undefined;
  return (operations[method] as (input: unknown) => Promise<unknown>)(operationEntry(method).input(args));
}
