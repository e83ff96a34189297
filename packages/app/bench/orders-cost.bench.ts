// What one POST /orders costs on PostgreSQL, measured in units that do not follow the load of a
// shared machine: statements and round trips per order, and CPU milliseconds per order of the Node
// process and of PostgreSQL. 1,000 incasso orders (business debtor, 3 invoices, no attachment, no
// 14-day letter) at concurrency 16 after 200 to warm up; each order opens a case; then the same for
// pre-incasso orders (which record their letter job) and for incasso orders that join an open case
// (a follow-up order for a customer number with an open case).
// In-process (api.fetch), the key's limits raised.
// Run: pnpm exec tsx packages/app/bench/orders-cost.bench.ts
// The built-in case system places each order with its one placeOnCase call (the separate calls
// BENCH_CASE_CALLS and BENCH_ITEM_CALLS once chose left the port: decision
// case-system-port-placement-required).
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
// `?prepared_statements=false` on it sends statements unnamed. BENCH_DATABASE=dedicated works in a
// throwaway database instead of a schema; BENCH_PGBOUNCER=1 puts PgBouncer in transaction mode in
// front of that database and reports its CPU too (bench-database.ts).
// PostgreSQL CPU is read from /proc (the server must run on this machine): the backends of this
// run's pool (found by application_name) and, for comparison with earlier figures, every postgres
// process (which includes other work on the same server).
import { createRequire } from "node:module";
import { Socket } from "node:net";
import { loadavg } from "node:os";
import { createBuiltInCaseSystem } from "../../case-system/src/index.js";
import { issueApiKey } from "../../core/src/index.js";
import { createApi } from "../../server/src/index.js";
import { benchOrderBody } from "./bench-order.js";
import { openMeasuredStore, postgresTicks, processTicks, ticksSince } from "./postgres-cpu.js";

const CONCURRENCY = 16;
const WARMUP = 200;
const COUNT = 1000;
const TICK_MS = 10; // /proc/<pid>/stat counts CPU time in clock ticks of 1/100 s (USER_HZ)

// The pg module of the store, so its client is the one counted.
const pg = createRequire(new URL("../../store-sql/package.json", import.meta.url))("pg") as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};
const counted = { statements: 0, begins: 0, roundTrips: 0 };
// A round trip is a statement sent to a connection with nothing else in flight on it (the client
// waited for every answer before): in pipeline mode a statement sent behind others travels with
// them (BEGIN with the first statement of a transaction, a batch's BEGIN, statements and COMMIT).
const inFlight = new WeakMap<object, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
  counted.statements++;
  if (args[0] === "BEGIN") counted.begins++;
  const pending = inFlight.get(this) ?? 0;
  if (pending === 0) counted.roundTrips++;
  inFlight.set(this, pending + 1);
  const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
  const callback = args.findIndex((a) => typeof a === "function");
  if (callback !== -1) {
    const given = args[callback] as (...r: unknown[]) => unknown;
    args[callback] = (...r: unknown[]) => {
      done();
      return given(...r);
    };
  }
  const result = query.apply(this, args);
  if (callback === -1 && result instanceof Promise) result.then(done, done);
  return result;
};

// Socket writes (system calls that send), counted on every socket of the process: only the pool's
// in this in-process run. A corked socket sends what was written to it in one _writev.
const writes = { count: 0 };
const socket = Socket.prototype as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
for (const method of ["_write", "_writev"] as const) {
  const original = socket[method];
  socket[method] = function (this: unknown, ...args: unknown[]) {
    writes.count++;
    return original?.apply(this, args);
  };
}

const measured = await openMeasuredStore("cost");
const { store, tag } = measured;
const silent = { info() {}, warn() {}, error: console.error };
const api = createApi({
  store,
  logger: silent,
  apiRateLimit: { perMinute: 1_000_000 },
  caseSystem: createBuiltInCaseSystem({ store }),
});
const issued = await issueApiKey(store, {
  organisation: `Cost ${tag}`,
  mode: "live",
  perMinute: 1_000_000,
  perDay: 1_000_000,
});

function order(customerNumber: string, i: number, type: "incasso" | "pre-incasso" = "incasso"): Request {
  return new Request("http://x/api/v1/orders", {
    method: "POST",
    headers: { authorization: `Bearer ${issued.key}`, "content-type": "application/json" },
    body: benchOrderBody({ type, reference: `C-${i}`, customerNumber, n: i }),
  });
}

async function load(make: (i: number) => Request, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const res = await api.fetch(make(i));
        if (res.status !== 201) throw new Error(`POST /orders answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
}

async function measure(name: string, make: (i: number) => Request) {
  await load(make, WARMUP);
  const earlier = await measured.backends();
  const before = {
    counted: { ...counted },
    writes: writes.count,
    node: process.cpuUsage(),
    pg: postgresTicks(),
    pooler: processTicks(measured.poolerPid),
  };
  const started = performance.now();
  await load((i) => make(WARMUP + i), COUNT);
  const wallMs = performance.now() - started;
  const node = process.cpuUsage(before.node);
  const after = postgresTicks();
  const poolerTicks = processTicks(measured.poolerPid) - before.pooler;
  // Backends opened during the run count too (whatever is new and named like this run's pool).
  const pids = new Set([...earlier, ...(await measured.backends())]);
  const statements = counted.statements - before.counted.statements;
  const begins = counted.begins - before.counted.begins;
  return {
    name,
    statements: statements / COUNT,
    begins: begins / COUNT,
    roundTrips: (counted.roundTrips - before.counted.roundTrips) / COUNT,
    socketWrites: (writes.count - before.writes) / COUNT,
    nodeMs: (node.user + node.system) / 1000 / COUNT,
    backendsMs: (ticksSince(before.pg, after, pids) * TICK_MS) / COUNT,
    allPostgresMs: (ticksSince(before.pg, after) * TICK_MS) / COUNT,
    poolerMs: (poolerTicks * TICK_MS) / COUNT,
    perSecond: (COUNT / wallMs) * 1000,
  };
}

const loadAtStart = loadavg()[0] ?? 0;
const results = [];
try {
  results.push(await measure("incasso order, new case", (i) => order(`${tag}-n-${i}`, i)));
  // A pre-incasso order also records its letter job (no letter runner runs in this process).
  results.push(await measure("pre-incasso order, new case", (i) => order(`${tag}-p-${i}`, i, "pre-incasso")));
  // Every customer number gets its case first; the measured orders then join those open cases.
  await load((i) => order(`${tag}-m-${i}`, i), WARMUP + COUNT);
  results.push(await measure("incasso order joining an open case", (i) => order(`${tag}-m-${i}`, i)));
} finally {
  await measured.drop();
}

console.log(
  `\n${measured.describe}. ${COUNT} orders per line at concurrency ${CONCURRENCY} after ${WARMUP} warm-up; PostgreSQL pool 10 (default); ` +
    "case calls: one placeOnCase call. " +
    `Load average (1 min) ${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at end.\n`,
);
console.log(
  "| order | statements per order (BEGIN, COMMIT included) | transactions | round trips | socket writes | Node CPU ms per order | PostgreSQL CPU ms per order (this run's backends) | (every postgres process) | PgBouncer CPU ms per order | orders/s |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
const f = (n: number) => n.toFixed(2);
for (const r of results) {
  console.log(
    `| ${r.name} | ${f(r.statements)} | ${f(r.begins)} | ${f(r.roundTrips)} | ${f(r.socketWrites)} | ${f(r.nodeMs)} | ${f(r.backendsMs)} | ${f(r.allPostgresMs)} | ${measured.poolerPid === undefined ? "–" : f(r.poolerMs)} | ${Math.round(r.perSecond)} |`,
  );
}
