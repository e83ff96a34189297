// CPU time of the PostgreSQL server's processes on this machine, for the cost benchmarks: read
// from /proc/<pid>/stat (Linux), so only a server on the same machine is measured.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { openStore } from "../../store-sql/src/index.js";
import { INCASSO_MIGRATIONS } from "../src/internal/incasso-migrations.js";
import { benchDatabase } from "./bench-database.js";

/** CPU ticks (utime + stime) per pid of the processes named postgres. */
export function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      // Fields after the command name (which ends with ")"): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while the directory was read.
    }
  }
  return ticks;
}

/** Ticks spent between two readings, by the given pids only or by every postgres process. */
export function ticksSince(
  before: Map<number, number>,
  after: Map<number, number>,
  pids?: Set<number>,
): number {
  let sum = 0;
  for (const [pid, t] of after) if (pids === undefined || pids.has(pid)) sum += t - (before.get(pid) ?? 0);
  return sum;
}

/** CPU ticks (utime + stime) of one process, 0 when it is gone. */
export function processTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * A store in a throwaway schema of the benchmark database (BENCH_DATABASE_URL, TEST_DATABASE_URL or
 * the local server), or in a throwaway database of its own, directly or through PgBouncer
 * (BENCH_DATABASE=dedicated, BENCH_PGBOUNCER=1: {@link benchDatabase}). Its connections carry an
 * application name, so the run's own backends can be told from every other postgres process (by
 * database, when the run has one: a pooler's server connections carry the name of the client that
 * opened them only). `drop` removes the schema or database and closes the store.
 */
export async function openMeasuredStore(label: string) {
  const tag = randomBytes(3).toString("hex");
  const applicationName = `incasso_${label}_${tag}`;
  const target = await benchDatabase(label, tag);
  const { url, schema } = target;
  const store = await openStore({
    databaseUrl: `${url}${url.includes("?") ? "&" : "?"}application_name=${applicationName}`,
    ...(schema === undefined ? {} : { schema }),
    migrations: INCASSO_MIGRATIONS,
  });
  return {
    store,
    tag,
    describe: target.describe,
    poolerPid: target.poolerPid,
    /** Pids of this store's backends now. */
    async backends(): Promise<number[]> {
      const { rows } =
        target.database === undefined
          ? await store.database.query<{ pid: number }>(
              "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
              [applicationName],
            )
          : await store.database.query<{ pid: number }>(
              "SELECT pid FROM pg_stat_activity WHERE datname = $1",
              [target.database],
            );
      return rows.map((r) => Number(r.pid));
    },
    async drop(): Promise<void> {
      if (schema !== undefined) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
      await store.close();
      await target.release();
    },
  };
}
