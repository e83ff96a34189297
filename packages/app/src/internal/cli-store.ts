import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { type IncassoTarget, resolveTarget } from "../incasso-target.js";
import { directOperations, type OperatorOperations } from "../operator/operations.js";
import { readOperatorEndpoint, remoteOperations } from "../operator/operator-client.js";
import { INCASSO_MIGRATIONS } from "./incasso-migrations.js";
import { secretKeyOption } from "./secrets-at-rest.js";

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
  if (flags["database-url"]) {
    warnPasswordInFlag(flags["database-url"]);
    return resolveTarget({ databaseUrl: flags["database-url"] });
  }
  if (flags["data-dir"]) return resolveTarget({ dataDir: flags["data-dir"] });
  return resolveTarget(undefined);
}

let warnedPasswordInFlag = false;

/**
 * Whether a connection string carries a password: the URL form's `user:password@` or libpq's
 * `password=` keyword.
 *
 * @example
 * hasPassword("postgres://incasso:pw@db/incasso"); // true
 */
export function hasPassword(databaseUrl: string): boolean {
  try {
    if (new URL(databaseUrl).password !== "") return true;
  } catch {
    // Not a URL: libpq's keyword form, checked below.
  }
  return /(^|[\s?&])password=/i.test(databaseUrl);
}

/**
 * A command line is readable by every user of the machine (`ps`, /proc/PID/cmdline), so a password
 * in --database-url is not secret there; the environment is readable only by the same user
 * (decision store-secrets-at-rest). Said once per process, on stderr so `--json` output stays
 * clean.
 */
function warnPasswordInFlag(databaseUrl: string): void {
  if (warnedPasswordInFlag || !hasPassword(databaseUrl)) return;
  warnedPasswordInFlag = true;
  process.stderr.write(
    "incasso: warning: --database-url holds a password, which any user of this machine can read in the process list; pass the URL in DATABASE_URL instead\n",
  );
}

/**
 * The keys of INCASSO_SECRET_KEY for openStore, when set.
 *
 * @example
 * await openStore({ ...target, ...secretKeyFromEnv() });
 */
export function secretKeyFromEnv(): { secretKey?: string } {
  return secretKeyOption(process.env.INCASSO_SECRET_KEY);
}

/** Opens the store for a server or a command; the lock names the command. */
export function openStoreFor(flags: StorageFlags, command: string): Promise<SqlStore> {
  const target = storageTarget(flags);
  return openStore({
    ...target,
    lockCommand: command,
    migrations: INCASSO_MIGRATIONS,
    ...secretKeyFromEnv(),
  });
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
    store = await openStore({
      ...target,
      lockCommand: command,
      migrations: INCASSO_MIGRATIONS,
      ...secretKeyFromEnv(),
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
