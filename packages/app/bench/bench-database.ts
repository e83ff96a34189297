// Where a cost benchmark's store lives. By default a throwaway schema of the benchmark database;
// BENCH_DATABASE=dedicated makes a throwaway database instead, and BENCH_PGBOUNCER=1 (which implies
// it) puts a PgBouncer in transaction pooling mode in front of that database. A transaction pooler
// cannot carry a schema (the store sets search_path per connection, a session setting), so the
// pooled run needs a database of its own; the direct run on a dedicated database is its like for
// like. PgBouncer: TEST_PGBOUNCER, else /usr/sbin/pgbouncer and the usual places; its pool has
// as many server connections as the store's pool (10), so neither side waits on the other.
import { createRequire } from "node:module";
import { findPgbouncer, type Pgbouncer, startPgbouncer } from "../../../test/crash/pgbouncer-process.js";

const pg = createRequire(new URL("../../store-sql/package.json", import.meta.url))("pg") as {
  Client: new (options: {
    connectionString: string;
  }) => {
    connect(): Promise<void>;
    query(text: string): Promise<unknown>;
    end(): Promise<void>;
  };
};

/** What the store connects to, and how to clean up after the run. */
export interface BenchDatabase {
  /** The URL for the store (through the pooler when there is one). */
  url: string;
  /** The schema for the store, or undefined for the database's own (a dedicated database). */
  schema: string | undefined;
  /** The database the store's backends work in, to find them in pg_stat_activity. */
  database: string | undefined;
  /** The pooler's process, for its CPU time; undefined without one. */
  poolerPid: number | undefined;
  /** What the run went through, for the report. */
  describe: string;
  /** Drops the dedicated database and stops the pooler (the schema is dropped by the caller). */
  release(): Promise<void>;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The database for a run labelled `label` with the random `tag`, from BENCH_DATABASE_URL,
 * TEST_DATABASE_URL or the local server.
 */
export async function benchDatabase(label: string, tag: string): Promise<BenchDatabase> {
  const base =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/postgres";
  const viaPgbouncer = process.env.BENCH_PGBOUNCER === "1";
  const dedicated = viaPgbouncer || process.env.BENCH_DATABASE === "dedicated";
  if (!dedicated) {
    return {
      url: base,
      schema: `bench_${label}_${tag}`,
      database: undefined,
      poolerPid: undefined,
      describe: "PostgreSQL directly, a throwaway schema",
      release: async () => {},
    };
  }
  const database = `incasso_bench_${label}_${tag}`;
  const parsed = new URL(base);
  await admin(base, `CREATE DATABASE ${database}`);
  const drop = () => admin(base, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  const direct = new URL(parsed.href);
  direct.pathname = `/${database}`;
  if (!viaPgbouncer) {
    return {
      url: direct.href,
      schema: undefined,
      database,
      poolerPid: undefined,
      describe: "PostgreSQL directly, a throwaway database",
      release: drop,
    };
  }
  const binary = findPgbouncer();
  if (binary === undefined) {
    await drop();
    throw new Error("BENCH_PGBOUNCER=1 needs pgbouncer (apt-get install pgbouncer, or TEST_PGBOUNCER)");
  }
  let bouncer: Pgbouncer;
  try {
    bouncer = await startPgbouncer({
      binary,
      upstream: { host: parsed.hostname, port: Number(parsed.port || 5432) },
      poolSize: 10,
    });
  } catch (error) {
    await drop();
    throw error;
  }
  const pooled = new URL(direct.href);
  pooled.host = `127.0.0.1:${bouncer.port}`;
  // Declared, as an operator would: unnamed statements from the first one (decision
  // store-connection-poolers).
  pooled.searchParams.set("pgbouncer", "true");
  return {
    url: pooled.href,
    schema: undefined,
    database,
    poolerPid: bouncer.pid,
    describe: `PgBouncer (${binary}) in transaction mode, pool 10, a throwaway database`,
    async release() {
      await bouncer.stop();
      await drop();
    },
  };
}
