import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { type IncassoTarget, resolveTarget } from "../incasso-target.js";
import { directOperations, type OperatorOperations } from "../operator/operations.js";
import { readOperatorEndpoint, remoteOperations } from "../operator/operator-client.js";
import { INCASSO_MIGRATIONS } from "./incasso-migrations.js";

/** The storage flags every command takes. */
export interface StorageFlags {
  "data-dir"?: string | boolean | undefined;
  "database-url"?: string | boolean | undefined;
}

/**
 * Where the data is: the flags first (--database-url, --data-dir), then the environment as
 * {@link resolveTarget} reads it (INCASSO_DATABASE_URL, DATABASE_URL, INCASSO_DATA_DIR, `./.data`).
 */
export function storageTarget(flags: StorageFlags): IncassoTarget {
  const url = flags["database-url"];
  const dir = flags["data-dir"];
  if (typeof url === "string" && url !== "") return resolveTarget({ databaseUrl: url });
  if (typeof dir === "string" && dir !== "") return resolveTarget({ dataDir: dir });
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
 * `migrate: false` opens the store without applying the migrations (for `incasso migrate`, which
 * applies them itself and reports what it applied).
 */
export async function withOperations<T>(
  flags: StorageFlags,
  command: string,
  fn: (operations: OperatorOperations) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const target = storageTarget(flags);
  if ("dataDir" in target && isDataDirHeld(target.dataDir)) return fn(runningServer(target.dataDir));
  let store: SqlStore;
  try {
    store = await openStore({
      ...target,
      lockCommand: command,
      migrations: INCASSO_MIGRATIONS,
      ...(options.migrate === false ? { migrate: false } : {}),
    });
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
