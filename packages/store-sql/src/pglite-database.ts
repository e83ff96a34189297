import { PGlite } from "@electric-sql/pglite";
import type { Executor, SqlDatabase } from "./database.js";

function executor(db: Pick<PGlite, "query">): Executor {
  return {
    async query<Row>(text: string, params?: unknown[]) {
      const result = await db.query<Row>(text, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
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
  const pglite = options.dataDir === undefined ? await PGlite.create() : await PGlite.create(options.dataDir);
  const outer = executor(pglite);
  return {
    engine: "pglite",
    query: outer.query,
    transaction: (fn) => pglite.transaction((tx) => fn(executor(tx))),
    // In process there is no round trip to save: the statements run one after the other in a
    // transaction, which on PGlite also keeps every other query out until it ends.
    batch: (statements) =>
      pglite.transaction(async (tx) => {
        const on = executor(tx);
        const results = [];
        for (const s of statements) results.push(await on.query<Record<string, unknown>>(s.text, s.params));
        return results;
      }),
    close: () => pglite.close(),
  };
}
