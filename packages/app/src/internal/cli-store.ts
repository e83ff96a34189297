import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { type IncassoTarget, resolveTarget } from "../incasso-target.js";
import { directOperations, type OperatorOperations } from "../operator/operations.js";
import { readOperatorEndpoint, remoteOperations } from "../operator/operator-client.js";
import { INCASSO_MIGRATIONS } from "./incasso-migrations.js";

/** The storage flags every command takes. */
export interface StorageFlags {
  "data-dir"?: string | undefined;
  "database-url"?: string | undefined;
}

/**
 * Where the data is: the flags first (--database-url, --data-dir), then the environment as
 * {@link resolveTarget} reads it (DATABASE_URL, INCASSO_DATA_DIR, `./.data`).
 */
export function storageTarget(flags: StorageFlags): IncassoTarget {
  if (flags["database-url"]) return resolveTarget({ databaseUrl: flags["database-url"] });
  if (flags["data-dir"]) return resolveTarget({ dataDir: flags["data-dir"] });
  return resolveTarget(undefined);
}

/** Opens the store for a server or a command; the lock names the command. */
export function openStoreFor(flags: StorageFlags, command: string): Promise<SqlStore> {
  const target = storageTarget(flags);
  return openStore({ ...target, lockCommand: command, migrations: INCASSO_MIGRATIONS });
}

function runningServer(dataDir: string): OperatorOperations {
  const info = readOperatorEndpoint(dataDir);
  if (info === undefined) {
    const holder = isDataDirHeld(dataDir);
    throw new Error(
      `The data directory ${dataDir} is in use by process ${holder?.pid ?? "?"}, which offers no operator ` +
        "endpoint. Stop it and run the command again.",
    );
  }
  return remoteOperations(info);
}

/**
 * Runs `fn` with the operator operations: through the running server's operator endpoint when a
 * live server holds the embedded data directory, otherwise on the store opened here (and closed
 * afterwards). PostgreSQL is always opened directly: many clients are its normal case.
 */
export async function withOperations<T>(
  flags: StorageFlags,
  command: string,
  fn: (operations: OperatorOperations) => Promise<T>,
): Promise<T> {
  const target = storageTarget(flags);
  if ("dataDir" in target && isDataDirHeld(target.dataDir)) return fn(runningServer(target.dataDir));
  let store: SqlStore;
  try {
    store = await openStore({ ...target, lockCommand: command, migrations: INCASSO_MIGRATIONS });
  } catch (error) {
    // A server started between the check and the open: talk to it instead.
    if ("dataDir" in target && isDataDirLockedError(error)) return fn(runningServer(target.dataDir));
    throw error;
  }
  try {
    return await fn(directOperations(store));
  } finally {
    await store.close();
  }
}
