import pg from "pg";
import type { Executor, SqlDatabase } from "./database.js";

/**
 * Options of {@link openPostgresDatabase}.
 *
 * @example
 * const options: PostgresOptions = { url: "postgres://postgres@127.0.0.1:5432/incasso", maxConnections: 20 };
 */
export interface PostgresOptions {
  /** A libpq connection URL, as in `DATABASE_URL`. */
  url: string;
  /**
   * A schema to work in instead of `public`; created when missing. Tests give each suite its own so
   * they can share one database.
   */
  schema?: string;
  /**
   * Pool size; default 20. An order on the built-in case system holds up to one connection per
   * debtor address and invoice at once (the engine runs those steps in parallel), so at 16 orders
   * in flight a pool of 10 made them wait for connections (p99 about 180 to 220 ms against about
   * 150 ms with 20, docs/benchmarks/orders.md).
   */
  maxConnections?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** At most this many statement texts get a name; the rest are sent unnamed (parsed every time). */
const MAX_NAMED_STATEMENTS = 1000;

/**
 * Names for prepared statements, one per statement text of this pool. A named statement is parsed
 * and planned once per connection and then only bound and run: measured on the order path, about
 * 30 % less PostgreSQL CPU per order. Only statements with parameters are named (the others are
 * sent with the simple protocol, which migrations need for several statements in one text); the
 * count is capped so SQL built from values could never fill a connection with statements.
 */
class StatementNames {
  readonly #names = new Map<string, string>();
  #next = 0;

  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= MAX_NAMED_STATEMENTS) return name;
    return this.#rename(text);
  }

  /** A fresh name: the connections then parse the text again (after a table's columns changed). */
  #rename(text: string): string {
    const name = `incasso_${this.#next++}`;
    this.#names.set(text, name);
    return name;
  }

  retire(text: string): void {
    if (this.#names.has(text)) this.#rename(text);
  }
}

// PostgreSQL refuses a prepared statement whose result columns changed since it was prepared (a
// migration by another process added a column to a table read with SELECT *): SQLSTATE 0A000.
const isStalePlan = (error: unknown): boolean =>
  (error as { code?: unknown }).code === "0A000" &&
  String((error as { message?: unknown }).message).includes("cached plan must not change result type");

function executor(client: pg.Pool | pg.PoolClient, names: StatementNames, retry: boolean): Executor {
  const run = (text: string, params: unknown[] | undefined) => {
    const name = params !== undefined && params.length > 0 ? names.nameOf(text) : undefined;
    return client.query(name === undefined ? { text, values: params } : { name, text, values: params });
  };
  return {
    async query<Row>(text: string, params?: unknown[]) {
      let result: pg.QueryResult;
      try {
        result = await run(text, params);
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        // Prepared again under a new name. Outside a transaction the statement is simply sent
        // again; inside one the transaction has failed and its caller sees the error.
        names.retire(text);
        if (!retry) throw error;
        result = await run(text, params);
      }
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
    max: options.maxConnections ?? 20,
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
  const names = new StatementNames();
  const outer = executor(pool, names, true);
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
        const result = await fn(executor(client, names, false));
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
