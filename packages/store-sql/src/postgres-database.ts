import pg from "pg";
import type { Executor, SqlDatabase } from "./database.js";

/**
 * Options of {@link openPostgresDatabase}.
 *
 * @example
 * const options: PostgresOptions = { url: "postgres://postgres@127.0.0.1:5432/incasso", maxConnections: 10 };
 */
export interface PostgresOptions {
  /** A libpq connection URL, as in `DATABASE_URL`. */
  url: string;
  /**
   * A schema to work in instead of `public`; created when missing. Tests give each suite its own so
   * they can share one database.
   */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function executor(client: pg.Pool | pg.PoolClient): Executor {
  return {
    async query<Row>(text: string, params?: unknown[]) {
      const result = await client.query(text, params);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/**
 * Opens a PostgreSQL server through a `pg` pool.
 *
 * @example
 * const db = await openPostgresDatabase({ url: process.env.DATABASE_URL! });
 */
export async function openPostgresDatabase(options: PostgresOptions): Promise<SqlDatabase> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`The schema name "${schema}" must be a lowercase SQL identifier.`);
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // Pipeline mode: a client writes a statement without waiting for the answer to the one before,
    // each with its own Sync (so one failing does not swallow the next). Only a transaction has
    // several statements on one client at once; there it lets BEGIN travel with the first statement.
    pipeline: true,
    // search_path per connection, so every statement of the repositories lands in the schema.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its connection must not crash the process (pg emits "error").
  pool.on("error", () => undefined);
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    else await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const outer = executor(pool);
  return {
    engine: "postgres",
    query: outer.query,
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // BEGIN is sent without waiting for its answer, so the transaction's first statement goes
        // out behind it in the same round trip (pipeline mode): one round trip less per
        // transaction. The server runs them in order, so that statement is inside the
        // transaction. BEGIN itself can only fail with the connection, and then so does
        // everything behind it; its answer is still checked before COMMIT.
        const begun = client.query("BEGIN").then(
          () => undefined,
          (error: unknown) => error as Error,
        );
        const result = await fn(executor(client));
        const beginError = await begun;
        if (beginError !== undefined) throw beginError;
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          // A client that cannot roll back is not put back in the pool in an open transaction.
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
