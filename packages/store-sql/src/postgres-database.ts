import { StoreUnavailableError } from "@incasso/core";
import pg from "pg";
import type { Executor, SqlDatabase } from "./database.js";
import { poolerSettings } from "./internal/pooler-settings.js";
import { unavailableOr } from "./internal/unavailable.js";

/**
 * Whether statements with parameters are prepared under a name: on, off, or decided from the URL
 * and the server's answers (decision store-connection-poolers).
 *
 * @example
 * const behindPgbouncer: PreparedStatements = false;
 */
export type PreparedStatements = boolean | "auto";

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
  /**
   * Pool size; default 10 (as `pg`'s own). An order holds one connection at a time (the built-in
   * case system places it in one call), so connections beyond the statements in flight only add
   * PostgreSQL backends that compete for the same cores: at 16 orders in flight on a 2-core
   * machine, 10 gave a p99 of 41 to 58 ms where 20 gave 52 to 58 ms at the same rate
   * (docs/benchmarks/orders.md). Raise it for a server with more cores or a busier process.
   */
  maxConnections?: number;
  /**
   * How long to wait for a new connection, in milliseconds; default 5000. Without a limit (`pg`'s
   * default) a request waits as long as the network lets a connection attempt hang; with it the
   * request gets a 503 with Retry-After (decision store-unavailable-503).
   */
  connectionTimeoutMs?: number;
  /**
   * Whether statements with parameters are prepared under a name, once per connection: `true`,
   * `false` (each is parsed every time, as a transaction-mode pooler such as PgBouncer needs), or
   * `"auto"` (the default): off when the URL says `pgbouncer=true` or `prepared_statements=false`
   * or names port 6432 or 6543 (PgBouncer's and the usual transaction pooler's), on otherwise, and
   * switched off for good when the server answers that a named statement already exists or does
   * not (a pooler nobody declared). Decision store-connection-poolers.
   */
  preparedStatements?: PreparedStatements;
  /**
   * How long one statement may wait for its answer, in milliseconds; default 10000; 0 turns it
   * off. A statement past it fails with a 503 and its connection is closed, never put back in the
   * pool: the answer may still arrive (or never, on a cut network), and a connection with an
   * answer owed would hand it to the next statement. It is `pg`'s own `query_timeout`, which in
   * pipeline mode destroys the socket of a statement already sent (decision
   * store-timeouts-and-keepalive).
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL's `statement_timeout` for this pool's sessions, in milliseconds; default 0 (the
   * server's own setting). Sent in the startup packet, never with `SET`: behind a transaction
   * pooler a `SET` would stay on a server connection other clients then use. PgBouncer refuses
   * an unknown startup parameter, so there it needs `track_extra_parameters = statement_timeout`
   * (PgBouncer 1.20 or later), or leave this off and set it on the role (`ALTER ROLE … SET`).
   */
  statementTimeoutMs?: number;
  /**
   * Idle time before TCP keep-alive probes start on a connection, in milliseconds; default 30000.
   * Without it the system's default applies (two hours on Linux), so a connection whose server
   * vanished without a word (a cut network, a failed-over address) would sit in the pool that long.
   */
  keepAliveIdleMs?: number;
}

const DEFAULT_CONNECTION_TIMEOUT_MS = 5000;

/**
 * The default of {@link PostgresOptions.queryTimeoutMs}: 10 s. Long enough for any statement of
 * the order path (milliseconds each, docs/benchmarks/orders.md) under load, short enough that a
 * client gets its 503 well before its own time-out and the idempotency lease (30 s) runs out.
 *
 * @example
 * DEFAULT_QUERY_TIMEOUT_MS / 1000; // 10
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/**
 * The default of {@link PostgresOptions.keepAliveIdleMs}: probes start after 30 s of silence.
 *
 * @example
 * DEFAULT_KEEPALIVE_IDLE_MS / 1000; // 30
 */
export const DEFAULT_KEEPALIVE_IDLE_MS = 30_000;

/**
 * A client taken from the pool for a transaction or a batch. While it is checked out the pool's
 * own listener is off, and a client that loses its connection emits "error": unheard, node ends
 * the process. The statements in flight fail on their own; this listener only keeps the process.
 */
async function checkout(pool: pg.Pool): Promise<{ client: pg.PoolClient; done: (broken?: Error) => void }> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailableOr(error);
  }
  const onError = () => undefined;
  client.on("error", onError);
  return {
    client,
    done(broken) {
      client.removeListener("error", onError);
      client.release(broken);
    },
  };
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
  #on: boolean;
  /** Whether a pooler's name clash may turn names off (the setting is "auto"). */
  readonly auto: boolean;

  constructor(on: boolean, auto: boolean) {
    this.#on = on;
    this.auto = auto;
  }

  /** No statement gets a name from now on (a transaction pooler is in between). */
  turnOff(): void {
    this.#on = false;
  }

  nameOf(text: string): string | undefined {
    if (!this.#on) return undefined;
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

// A transaction pooler hands each transaction whichever server connection is free, so a statement
// prepared on one is met again on another: PostgreSQL answers 42P05 duplicate_prepared_statement
// (the name was prepared there by another client) or 26000 invalid_sql_statement_name (it was
// prepared elsewhere). Only our own names count: they start with "incasso_".
const isPoolerNameClash = (error: unknown): boolean => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === "42P05" || code === "26000") && String(message).includes('"incasso_');
};

/**
 * A statement that met a named statement of another connection behind a pooler: statements are
 * unnamed from now on, and what was refused is worth one more try (decision
 * store-connection-poolers).
 */
function nameClash(names: StatementNames, error: unknown): boolean {
  if (!names.auto || !isPoolerNameClash(error)) return false;
  names.turnOff();
  return true;
}

/** Sends one statement, prepared under its name when it has parameters. */
function send(
  client: pg.Pool | pg.PoolClient,
  names: StatementNames,
  text: string,
  params: readonly unknown[] | undefined,
): Promise<pg.QueryResult> {
  const values = params === undefined ? undefined : [...params];
  const name = values !== undefined && values.length > 0 ? names.nameOf(text) : undefined;
  return client.query(name === undefined ? { text, values } : { name, text, values });
}

/**
 * The socket of a pooled client, to cork while several statements are handed to it: `pg` writes
 * each statement with a write of its own, and a corked socket sends everything written until the
 * uncork in one write (one system call instead of one per statement; the writes were a third of
 * the Node process's CPU on the order path, docs/benchmarks/orders.md). Undefined when the client
 * does not expose one (then each statement is written on its own, as before).
 */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } })
    .connection?.stream;
  return typeof stream?.cork === "function" && typeof stream.uncork === "function"
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/** The error for a transaction that met a pooler's name clash: it rolled back; a retry works. */
function poolerRefused(error: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    "A connection pooler gave this transaction a connection where its prepared statement did not match; statements are sent unnamed from now on, so a retry succeeds.",
    { cause: error },
  );
}

function executor(client: pg.Pool | pg.PoolClient, names: StatementNames, retry: boolean): Executor {
  const run = (text: string, params: unknown[] | undefined) => send(client, names, text, params);
  return {
    // pg sends a Buffer (and any Uint8Array, as a Buffer over its bytes) in binary.
    binaryBytes: true,
    async query<Row>(text: string, params?: unknown[]) {
      let result: pg.QueryResult;
      try {
        result = await run(text, params);
      } catch (error) {
        const clash = nameClash(names, error);
        if (!clash && !isStalePlan(error)) throw unavailableOr(error);
        // Prepared again under a new name, or sent unnamed behind a pooler. Outside a transaction
        // the statement is simply sent again; inside one the transaction has failed and its caller
        // sees the error (behind a pooler as the store being unavailable for a moment: 503).
        if (!clash) names.retire(text);
        if (!retry) throw clash ? poolerRefused(error) : error;
        try {
          result = await run(text, params);
        } catch (again) {
          throw unavailableOr(again);
        }
      }
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/**
 * Creates the schema, outside the statement time-out of requests: it is part of opening the store,
 * as the migrations are (migrations.ts clears the time-out for their transaction the same way). On
 * a connection of its own, without the pool's `statement_timeout`: with one of a few milliseconds
 * even the BEGIN before `SET LOCAL` was cancelled on a busy server. A role's or the server's
 * time-out still applies to that BEGIN, which is why `SET LOCAL` stays.
 */
async function createSchema(
  connectionString: string,
  connectionTimeoutMillis: number,
  schema: string,
): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("BEGIN");
    await client.query("SET LOCAL statement_timeout = 0");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query("COMMIT");
  } finally {
    await client.end().catch(() => undefined);
  }
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
  const pooler = poolerSettings(options.url, options.preparedStatements);
  if (schema !== undefined && pooler.declared) {
    // The schema is set per connection (a startup parameter), which a transaction pooler neither
    // passes on (PgBouncer refuses the `options` parameter) nor keeps across transactions.
    throw new Error(
      `The schema option cannot be used behind a connection pooler (the URL says pgbouncer=true); set the search_path of the database role instead: ALTER ROLE … SET search_path = ${schema}.`,
    );
  }
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: pooler.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis,
    // TCP keep-alive, so a connection whose server vanished without a FIN (a cut network) is
    // found dead and replaced rather than held by the pool.
    keepAlive: true,
    keepAliveInitialDelayMillis: options.keepAliveIdleMs ?? DEFAULT_KEEPALIVE_IDLE_MS,
    // A statement without an answer in time fails, and pg (pipeline mode) destroys its socket: a
    // stalled network then costs each request one time-out, not the whole stall.
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
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
    if (schema) {
      await createSchema(pooler.url, connectionTimeoutMillis, schema);
      // The pool's own settings (search_path, statement_timeout) are accepted at connect, with no
      // statement that a time-out of a few milliseconds could cancel.
      (await pool.connect()).release();
    } else await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const names = new StatementNames(pooler.named, pooler.auto);
  const outer = executor(pool, names, true);

  // One batch (SqlDatabase.batch): BEGIN, the statements and COMMIT written at once on a corked
  // socket, then every answer awaited. A statement that fails aborts the transaction: the ones
  // behind it fail with 25P02 and COMMIT answers ROLLBACK, so nothing is kept and the first
  // failure is the error. A COMMIT without an answer leaves the connection in doubt: dropped.
  async function runBatch(statements: readonly { text: string; params?: readonly unknown[] }[]) {
    const { client, done } = await checkout(pool);
    let broken: Error | undefined;
    try {
      const socket = socketOf(client);
      socket?.cork();
      let sent: Promise<pg.QueryResult>[];
      try {
        sent = [
          client.query("BEGIN"),
          ...statements.map((s) => send(client, names, s.text, s.params)),
          client.query("COMMIT"),
        ];
      } finally {
        socket?.uncork();
      }
      const settled = await Promise.allSettled(sent);
      const commit = settled[settled.length - 1] as PromiseSettledResult<pg.QueryResult>;
      if (commit.status === "rejected") {
        broken = commit.reason instanceof Error ? commit.reason : new Error(String(commit.reason));
      }
      const failed = settled.findIndex((s) => s.status === "rejected");
      if (failed !== -1) {
        const reason = (settled[failed] as PromiseRejectedResult).reason;
        const statement = statements[failed - 1];
        if (statement !== undefined && isStalePlan(reason)) names.retire(statement.text);
        if (nameClash(names, reason)) throw poolerRefused(reason);
        throw reason;
      }
      const committed = (commit as PromiseFulfilledResult<pg.QueryResult>).value.command;
      if (committed !== "COMMIT") throw new Error(`The batch's COMMIT was answered with ${committed}.`);
      return settled.slice(1, -1).map((s) => {
        const result = (s as PromiseFulfilledResult<pg.QueryResult>).value;
        return { rows: result.rows as Record<string, unknown>[], rowCount: result.rowCount ?? 0 };
      });
    } finally {
      done(broken);
    }
  }

  return {
    engine: "postgres",
    binaryBytes: true,
    query: outer.query,
    async batch(statements) {
      try {
        return await runBatch(statements);
      } catch (error) {
        // Nothing of the batch was kept, so a batch that met a statement prepared before a
        // migration changed its result columns, or a pooler's name clash, runs once more,
        // prepared again or unnamed.
        const clashed = isPoolerNameClash((error as { cause?: unknown } | null)?.cause);
        if (!isStalePlan(error) && !clashed) throw unavailableOr(error);
        return runBatch(statements).catch((again: unknown) => {
          throw unavailableOr(again);
        });
      }
    },
    async transaction(fn) {
      const { client, done } = await checkout(pool);
      let broken: Error | undefined;
      try {
        // BEGIN is sent without waiting for its answer, so the transaction's first statement goes
        // out behind it in the same round trip (pipeline mode): one round trip less per
        // transaction. The server runs them in order, so that statement is inside the
        // transaction. BEGIN itself can only fail with the connection, and then so does
        // everything behind it; its answer is still checked before COMMIT. The socket is corked
        // while `fn` runs up to its first wait, so BEGIN and the statements `fn` sends at once go
        // out in one write.
        const socket = socketOf(client);
        socket?.cork();
        let begun: Promise<Error | undefined> = Promise.resolve(undefined);
        let running: ReturnType<typeof fn>;
        try {
          begun = client.query("BEGIN").then(
            () => undefined,
            (error: unknown) => error as Error,
          );
          running = fn(executor(client, names, false));
        } catch (error) {
          running = Promise.reject(error);
        } finally {
          socket?.uncork();
        }
        const result = await running;
        const beginError = await begun;
        if (beginError !== undefined) throw beginError;
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          // A client that cannot roll back is not put back in the pool in an open transaction.
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw unavailableOr(error);
      } finally {
        done(broken);
      }
    },
    close: () => pool.end(),
  };
}
