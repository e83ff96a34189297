import { createBuiltInCaseSystem, createCaseHandler } from "@incasso/case-system";
import { requireOrganisation } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import {
  directWebhookOperations,
  type WebhookOperationsOptions,
} from "../webhooks/direct-webhook-operations.js";
import type { OperationContext } from "./operator-operation.js";
import {
  type OperationCall,
  type OperatorOperations,
  operationEntry,
  operationsOf,
} from "./operator-registry.js";

export { type CreateKeyInput, type KeySummary, keySummary } from "./key-summary.js";
export type { OperatorOperations } from "./operator-registry.js";

/**
 * What the operations work with on an open store. Case changes go through the built-in case system
 * with their webhook events: each writes its event into the outbox in the same transaction, and a
 * running dispatcher (the server's, or `incasso worker`) delivers it.
 *
 * @example
 * const context = operationContext(store, { webhooks: { allowPrivateTargets: true } });
 */
export function operationContext(
  store: SqlStore,
  options: { webhooks?: WebhookOperationsOptions; now?: () => Date } = {},
): OperationContext {
  const now = options.now ?? (() => new Date());
  return {
    store,
    cases: createCaseHandler(createBuiltInCaseSystem({ store, now }), { now }),
    webhooks: directWebhookOperations(store, options.webhooks),
    organisationId: async (name) => (await requireOrganisation(store, name)).id,
  };
}

/**
 * Runs each operation's handler on an open store.
 *
 * @example
 * const call = directCall(store);
 * await call("listKeys", {});
 */
export function directCall(
  store: SqlStore,
  options: { webhooks?: WebhookOperationsOptions } = {},
): OperationCall {
  const context = operationContext(store, options);
  return (method, input) => operationEntry(method).run(context, input);
}

/**
 * The operations on an open store. `options.webhooks` sets how ping and redeliver send (the
 * server passes its dispatcher and its private-target setting).
 *
 * @example
 * const operations = directOperations(await openStore({ dataDir: ".data" }));
 */
export function directOperations(
  store: SqlStore,
  options: { webhooks?: WebhookOperationsOptions } = {},
): OperatorOperations {
  return operationsOf(directCall(store, options));
}
