import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { type DatabaseTimeouts, databaseTimeouts } from "../database-timeouts.js";
import { directCall } from "../operations/operations.js";
import { readOperatorEndpoint, remoteCall } from "../operations/operator-client.js";
import {
  type OperationCall,
  type OperatorOperations,
  operationsOf,
} from "../operations/operator-registry.js";
import type { WebhookOperationsOptions } from "../webhooks/direct-webhook-operations.js";
import { INCASSO_MIGRATIONS } from "./incasso-migrations.js";
import { pgliteOption } from "./pglite-settings.js";
import { secretKeyOption } from "./secrets-at-rest.js";
import { type StorageFlags, storageTarget } from "./storage-target.js";

export { hasPassword, type StorageFlags, storageTarget } from "./storage-target.js";

/**
 * What openStore reads from the environment: the keys of INCASSO_SECRET_KEY, PGlite's buffer
 * size from INCASSO_PGLITE_SHARED_BUFFERS and the PostgreSQL time-outs of INCASSO_DATABASE_*,
 * when set.
 *
 * @example
 * await openStore({ ...target, ...storeOptionsFromEnv() });
 */
export function storeOptionsFromEnv(): {
  secretKey?: string;
  pgliteSharedBuffersMb?: number;
} & DatabaseTimeouts {
  return {
    ...secretKeyOption(process.env.INCASSO_SECRET_KEY),
    ...pgliteOption(process.env.INCASSO_PGLITE_SHARED_BUFFERS),
    ...databaseTimeouts({}, process.env),
  };
}

/**
 * Opens the store for a server or a command; the lock names the command. `timeouts` (from the
 * command's flags) win over the INCASSO_DATABASE_* variables.
 */
export function openStoreFor(
  flags: StorageFlags,
  command: string,
  timeouts: DatabaseTimeouts = {},
): Promise<SqlStore> {
  const target = storageTarget(flags);
  return openStore({
    ...target,
    lockCommand: command,
    migrations: INCASSO_MIGRATIONS,
    ...storeOptionsFromEnv(),
    ...timeouts,
  });
}

function runningServer(dataDir: string): OperationCall {
  const info = readOperatorEndpoint(dataDir);
  if (info === undefined) {
    const holder = isDataDirHeld(dataDir);
    throw new Error(
      `The data directory ${dataDir} is in use by process ${holder?.pid ?? "?"}, which offers no operator ` +
        "endpoint. Stop it and run the command again.",
    );
  }
  return remoteCall(info);
}

/**
 * How {@link withOperations} opens the store itself: `migrate: false` opens it without applying
 * the migrations (for `incasso migrate`, which applies them itself and reports what it applied);
 * `webhooks` sets how ping and redeliver send from this process.
 *
 * @example
 * const options: DirectOptions = { webhooks: { allowPrivateTargets: true } };
 */
export interface DirectOptions {
  migrate?: false;
  webhooks?: WebhookOperationsOptions;
}

/**
 * Runs `fn` with a caller of the operator operations: through the running server's operator
 * endpoint when a live server holds the embedded data directory, otherwise on the store opened
 * here (and closed afterwards). PostgreSQL is always opened directly: many clients are its normal
 * case.
 *
 * @example
 * const keys = await withOperationCall({ "data-dir": ".data" }, "keys", (call) => call("listKeys", {}));
 */
export async function withOperationCall<T>(
  flags: StorageFlags,
  command: string,
  fn: (call: OperationCall) => Promise<T>,
  options: DirectOptions = {},
): Promise<T> {
  const target = storageTarget(flags);
  if ("dataDir" in target && isDataDirHeld(target.dataDir)) return fn(runningServer(target.dataDir));
  let store: SqlStore;
  try {
    store = await openStore({
      ...target,
      lockCommand: command,
      migrations: INCASSO_MIGRATIONS,
      ...storeOptionsFromEnv(),
      ...(options.migrate === false ? { migrate: false } : {}),
    });
  } catch (error) {
    // A server started between the check and the open: talk to it instead.
    if ("dataDir" in target && isDataDirLockedError(error)) return fn(runningServer(target.dataDir));
    throw error;
  }
  try {
    return await fn(directCall(store, options.webhooks ? { webhooks: options.webhooks } : {}));
  } finally {
    await store.close();
  }
}

/**
 * {@link withOperationCall} with the operations as methods.
 *
 * @example
 * const keys = await withOperations({ "data-dir": ".data" }, "keys", (ops) => ops.listKeys());
 */
export function withOperations<T>(
  flags: StorageFlags,
  command: string,
  fn: (operations: OperatorOperations) => Promise<T>,
  options: DirectOptions = {},
): Promise<T> {
  return withOperationCall(flags, command, (call) => fn(operationsOf(call)), options);
}
