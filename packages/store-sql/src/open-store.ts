import { join, resolve } from "node:path";
import type { IncassoStore } from "@incasso/core";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.js";
import type { SqlDatabase } from "./database.js";
import { type Migration, migrate, pendingMigrations, STORE_MIGRATIONS } from "./migrations.js";
import { openPgliteDatabase } from "./pglite-database.js";
import { openPostgresDatabase } from "./postgres-database.js";
import { repositories } from "./repositories.js";
import { parseSecretKeyring, type SecretKeyring } from "./secret-keyring.js";
import {
  rotateWebhookSecrets,
  type WebhookSecretsRotation,
  type WebhookSecretsStatus,
  webhookSecretsStatus,
} from "./webhook-secrets.js";

/**
 * Where the data lives. With `databaseUrl`: PostgreSQL. With `dataDir`: embedded PGlite in that
 * directory, guarded by a lock file. With neither: PGlite in memory (tests, demos).
 *
 * @example
 * const options: OpenStoreOptions = { dataDir: ".data" };
 */
export interface OpenStoreOptions {
  /** A PostgreSQL URL (`DATABASE_URL`). Wins over `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL only: work in this schema (created when missing). */
  schema?: string;
  /** PostgreSQL only: pool size, default 10. */
  maxConnections?: number;
  /**
   * PostgreSQL only: how long a request waits for a connection, in milliseconds; default 5000.
   * Past it the request gets 503 with Retry-After.
   */
  connectionTimeoutMs?: number;
  /**
   * PostgreSQL only: how long one statement waits for its answer, in milliseconds; default
   * DEFAULT_QUERY_TIMEOUT_MS (10 s); 0 = none. Past it the request gets 503 and the
   * connection is closed, not reused (decision store-timeouts-and-keepalive). Migrations are not
   * bound by it: they run on a connection of their own.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL only: the server's `statement_timeout` for the store's sessions, in milliseconds,
   * sent in the startup packet; default 0 (the server's setting). Behind PgBouncer it needs
   * `track_extra_parameters = statement_timeout`.
   */
  statementTimeoutMs?: number;
  /** PostgreSQL only: idle time before TCP keep-alive probes, in milliseconds; default 30000. */
  keepAliveIdleMs?: number;
  /** The PGlite data directory. */
  dataDir?: string;
  /**
   * PGlite only: its `shared_buffers` in MiB, 1 to 1024; default PGLITE_SHARED_BUFFERS_MB
   * (16). The app reads it from INCASSO_PGLITE_SHARED_BUFFERS.
   */
  pgliteSharedBuffersMb?: number;
  /** What the lock file names as its holder; default `store`. */
  lockCommand?: string;
  /** Apply pending migrations on open; default true. */
  migrate?: boolean;
  /**
   * The schema steps, in any order (applied by version); default {@link STORE_MIGRATIONS}, the
   * store's own. A host with the built-in case system passes
   * `mergeMigrations(STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS)` (or opens with
   * `openCaseSystemStore` of @incasso/case-system).
   */
  migrations?: readonly Migration[];
  /**
   * The keys that encrypt webhook secrets at rest: the value of INCASSO_SECRET_KEY (one base64 key
   * of 32 bytes, or `id:key` entries separated by commas, the first sealing; decision
   * store-secrets-at-rest). Without it secrets are stored as given. An invalid value refuses the
   * open with a SecretKeyError `secret_key_invalid`.
   */
  secretKey?: string;
}

/**
 * The store on SQL: the core ports plus access to the database for packages that add tables.
 *
 * @example
 * const store = await openStore(); // PGlite in memory
 * await store.apiKeys.count(); // 0
 */
export interface SqlStore extends IncassoStore {
  /** The database, for packages that bring their own tables (case system, outbox). */
  readonly database: SqlDatabase;
  /** The PGlite directory, when embedded on disk. */
  readonly dataDir: string | undefined;
  /** Applies pending migrations; returns the versions applied. */
  migrate(): Promise<number[]>;
  /**
   * The versions of this store's migrations the database lacks (empty when current). A query on
   * the database, so it also proves the database answers: readiness uses it.
   */
  pendingMigrations(): Promise<number[]>;
  /** The id of the key new webhook secrets are encrypted with; undefined without a secret key. */
  readonly secretKeyId: string | undefined;
  /** How the webhook secrets are stored, by key id; reads no secret. */
  webhookSecretsStatus(): Promise<WebhookSecretsStatus>;
  /**
   * Encrypts every webhook secret with the current key (those stored as given and those under an
   * older key), all or none. Needs a secret key.
   */
  rotateWebhookSecrets(): Promise<WebhookSecretsRotation>;
}

/**
 * Opens the store and, by default, applies the migrations. An embedded directory is locked first:
 * a second process gets {@link DataDirLockedError} with a clear message instead of a corrupted
 * database.
 *
 * @example
 * const store = await openStore({ databaseUrl: process.env.DATABASE_URL });
 * try { console.log(await store.apiKeys.count()); } finally { await store.close(); }
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<SqlStore> {
  // Parsed before anything is opened, so a malformed key leaves no lock and no pool behind.
  const keyring: SecretKeyring | undefined =
    options.secretKey === undefined || options.secretKey.trim() === ""
      ? undefined
      : parseSecretKeyring(options.secretKey);
  let lock: DataDirLock | undefined;
  let database: SqlDatabase;
  const pglite =
    options.pgliteSharedBuffersMb === undefined ? {} : { sharedBuffersMb: options.pgliteSharedBuffersMb };
  const dataDir = options.databaseUrl || options.dataDir === undefined ? undefined : resolve(options.dataDir);
  // The migrations of a PostgreSQL store run on a pool of one connection without the time-outs of
  // the requests: a step may rebuild an index for minutes, and a second instance waits for the
  // first one's migration lock (decision store-timeouts-and-keepalive).
  let migrateOn: (<T>(run: (db: SqlDatabase) => Promise<T>) => Promise<T>) | undefined;
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    const schema = options.schema ? { schema: options.schema } : {};
    database = await openPostgresDatabase({
      url,
      ...schema,
      ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
      ...(options.connectionTimeoutMs !== undefined
        ? { connectionTimeoutMs: options.connectionTimeoutMs }
        : {}),
      ...(options.queryTimeoutMs !== undefined ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
      ...(options.statementTimeoutMs !== undefined ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
      ...(options.keepAliveIdleMs !== undefined ? { keepAliveIdleMs: options.keepAliveIdleMs } : {}),
    });
    if (options.queryTimeoutMs !== 0 || options.statementTimeoutMs) {
      migrateOn = async (run) => {
        const untimed = await openPostgresDatabase({ url, ...schema, maxConnections: 1, queryTimeoutMs: 0 });
        try {
          return await run(untimed);
        } finally {
          await untimed.close();
        }
      };
    }
  } else if (dataDir !== undefined) {
    lock = acquireDataDirLock(dataDir, options.lockCommand ?? "store");
    try {
      database = await openPgliteDatabase({ dataDir: join(dataDir, "pglite"), ...pglite });
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    database = await openPgliteDatabase(pglite);
  }
  const migrations = options.migrations ?? STORE_MIGRATIONS;
  let closed = false;
  const store: SqlStore = {
    ...repositories(database, keyring),
    engine: database.engine,
    database,
    dataDir,
    migrate: () => (migrateOn ? migrateOn((db) => migrate(db, migrations)) : migrate(database, migrations)),
    pendingMigrations: () => pendingMigrations(database, migrations),
    transaction: (fn) => database.transaction((tx) => fn(repositories(tx, keyring))),
    secretKeyId: keyring?.currentKeyId,
    webhookSecretsStatus: () => webhookSecretsStatus(database, keyring),
    rotateWebhookSecrets: () => rotateWebhookSecrets(database, keyring),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await database.close();
      } finally {
        lock?.release();
      }
    },
  };
  if (options.migrate !== false) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
