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
      try {
        await client.query("BEGIN");
        const result = await fn(executor(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
