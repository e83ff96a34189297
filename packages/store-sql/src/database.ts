/**
 * Runs one SQL statement with `$1`-style parameters: the one thing every repository function needs.
 * The pool, a pooled client and a PGlite transaction all have this shape, which is what lets one
 * repository code path serve PGlite and PostgreSQL (architecture: Storage).
 *
 * @example
 * const { rows } = await db.query<{ n: number }>("SELECT $1::int AS n", [1]);
 */
export interface Executor {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
}

/**
 * A database: an executor that can also open transactions and be closed. Inside `transaction` use
 * only the executor it hands you: on PGlite, a query on the outer database waits for the
 * transaction to end and so never returns.
 *
 * @example
 * await db.transaction(async (tx) => { await tx.query("INSERT ..."); await tx.query("UPDATE ..."); });
 */
export interface SqlDatabase extends Executor {
  readonly engine: "pglite" | "postgres";
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
