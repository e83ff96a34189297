import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Executor, SqlDatabase } from "./database.js";
import { unavailableOr } from "./internal/unavailable.js";

/**
 * The error when a data directory is asked for but PGlite is not installed: a host on PostgreSQL
 * may leave the optional dependency out (`npm install --omit=optional`).
 */
class PgliteMissingError extends Error {
  readonly code = "pglite_not_installed";
  constructor(cause: unknown) {
    super(
      "Embedded PostgreSQL needs the package @electric-sql/pglite, which is not installed. Install it " +
        "(npm install @electric-sql/pglite), or give a PostgreSQL URL (DATABASE_URL) instead of a data directory.",
      { cause },
    );
    this.name = "PgliteMissingError";
  }
}

type PgliteModule = typeof import("@electric-sql/pglite");

/**
 * Loads PGlite when a data directory (or an in-memory database) is opened, so a host on PostgreSQL
 * neither needs it installed nor pays for loading its WebAssembly module. Not re-exported; the
 * importer is a parameter for the test of a missing package.
 *
 * @example
 * const { PGlite } = await loadPglite();
 */
export async function loadPglite(
  importer: () => Promise<PgliteModule> = () => import("@electric-sql/pglite"),
): Promise<PgliteModule> {
  try {
    return await importer();
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") throw new PgliteMissingError(error);
    throw error;
  }
}

function executor(db: Pick<PGlite, "query">): Executor {
  return {
    async query<Row>(text: string, params?: unknown[]) {
      let result: Awaited<ReturnType<typeof db.query<Row>>>;
      try {
        result = await db.query<Row>(text, params);
      } catch (error) {
        // An engine that stopped (closed, or its WebAssembly aborted) answers nothing more: the
        // request gets a 503 with Retry-After, as with a PostgreSQL server out of reach.
        throw unavailableOr(error);
      }
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** A transaction of PGlite, its failure from a stopped engine turned into a StoreUnavailableError. */
async function inTransaction<T>(pglite: PGlite, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await pglite.transaction(fn);
  } catch (error) {
    throw unavailableOr(error);
  }
}

/**
 * Opens embedded PostgreSQL (PGlite), in a directory or, without one, in memory. This does not
 * guard the directory: {@link openStore} takes the lock file first, because two PGlite instances on
 * one directory corrupt it.
 *
 * @example
 * const db = await openPgliteDatabase(); // in memory, for tests
 * await db.query("SELECT 1");
 */
export async function openPgliteDatabase(options: { dataDir?: string } = {}): Promise<SqlDatabase> {
  const { PGlite } = await loadPglite();
  const pglite = options.dataDir === undefined ? await PGlite.create() : await PGlite.create(options.dataDir);
  const outer = executor(pglite);
  return {
    engine: "pglite",
    query: outer.query,
    transaction: (fn) => inTransaction(pglite, (tx) => fn(executor(tx))),
    // In process there is no round trip to save: the statements run one after the other in a
    // transaction, which on PGlite also keeps every other query out until it ends.
    batch: (statements) =>
      inTransaction(pglite, async (tx) => {
        const on = executor(tx);
        const results = [];
        for (const s of statements) results.push(await on.query<Record<string, unknown>>(s.text, s.params));
        return results;
      }),
    close: () => pglite.close(),
  };
}
