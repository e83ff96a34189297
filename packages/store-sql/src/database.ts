/**
 * Runs one SQL statement with `$1`-style parameters: the one thing every repository function needs.
 * The pool, a pooled client and a PGlite transaction all have this shape, which is what lets one
 * repository code path serve PGlite and PostgreSQL (architecture: Storage).
 *
 * @example
 * const { rows } = await db.query<{ n: number }>("SELECT $1::int AS n", [1]);
 */
export interface Executor {
  /**
   * True when a `Uint8Array` parameter reaches the database as binary `bytea`, with no text made of
   * it on the way (node-postgres sends a Buffer in the binary format of the extended protocol).
   * Without it, code that stores files sends them as base64 text the database decodes.
   */
  readonly binaryBytes?: boolean;
  query<Row = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
}

/**
 * One statement of {@link SqlDatabase.batch}: its text with `$1`-style parameters.
 *
 * @example
 * const statement: SqlStatement = { text: "SELECT $1::int AS n", params: [1] };
 */
export interface SqlStatement {
  text: string;
  params?: unknown[];
}

/**
 * A database: an executor that can also open transactions and be closed. Inside `transaction` use
 * only the executor it hands you: on PGlite, a query on the outer database waits for the
 * transaction to end and so never returns.
 *
 * @example
 * await db.transaction(async (tx) => { await tx.query("INSERT ..."); await tx.query("UPDATE ..."); });
 * const [, updated] = await db.batch([{ text: "SELECT pg_advisory_xact_lock($1)", params: [7] }, { text: "UPDATE ..." }]);
 */
export interface SqlDatabase extends Executor {
  readonly engine: "pglite" | "postgres";
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Runs the statements in order as one transaction and returns their results in the same order;
   * when one fails, nothing of the batch is kept and its error is thrown. No statement can use an
   * earlier one's result in JavaScript (only in SQL, through what the earlier one wrote or locked),
   * which is what lets PostgreSQL receive `BEGIN`, every statement and `COMMIT` in one write and
   * answer them in one round trip (decision case-system-port-one-call-placement).
   */
  batch(
    statements: readonly SqlStatement[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number }[]>;
  close(): Promise<void>;
}
