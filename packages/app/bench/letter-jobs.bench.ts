// What a pre-incasso POST /orders costs on PostgreSQL, and how fast one letter runner makes the
// statutory 14-day letters of those orders (decision case-system-wik-letter-jobs). In units that do
// not follow the load of a shared machine: statements and round trips, and CPU milliseconds of the
// Node process and of PostgreSQL, per order and per letter.
//
// 1. The request path: 1,000 pre-incasso orders (business debtor, 3 invoices, no attachment) at
//    concurrency 16 after 200 to warm up, each opening a case. No letter runner runs in this
//    process, as in a deployment whose letters are made by `incasso worker`: the orders only record
//    their letter jobs. (Code from before the letter jobs made the letter inside the request.)
// 2. The letters: one runner with its default settings (concurrency 4) makes the letters of those
//    1,200 orders; letters per second of wall time and the cost per letter.
//
// In-process (api.fetch), the key's limits raised. Run:
//   pnpm exec tsx packages/app/bench/letter-jobs.bench.ts
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
// PostgreSQL CPU is read from /proc (the server must run on this machine): the backends of this
// run's pool (found by application_name).
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import * as caseSystem from "../../case-system/src/index.js";
import { issueApiKey } from "../../core/src/index.js";
import { createApi } from "../../server/src/index.js";
import { benchOrderBody } from "./bench-order.js";
import { openMeasuredStore, postgresTicks, ticksSince } from "./postgres-cpu.js";

const CONCURRENCY = 16;
const WARMUP = 200;
const COUNT = 1000;
const TICK_MS = 10; // /proc/<pid>/stat counts CPU time in clock ticks of 1/100 s (USER_HZ)

// The pg module of the store, so its client is the one counted.
const pg = createRequire(new URL("../../store-sql/package.json", import.meta.url))("pg") as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};
const counted = { statements: 0, begins: 0 };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  counted.statements++;
  if (args[0] === "BEGIN") counted.begins++;
  return query.apply(this, args);
};

const measured = await openMeasuredStore("letters");
const { store, tag } = measured;
const silent = { info() {}, warn() {}, error: console.error };
const api = createApi({
  store,
  caseSystem: caseSystem.createBuiltInCaseSystem({ store }),
  logger: silent,
  apiRateLimit: { perMinute: 1_000_000 },
});
const issued = await issueApiKey(store, {
  organisation: `Letters ${tag}`,
  mode: "live",
  perMinute: 1_000_000,
  perDay: 1_000_000,
});
// Without an IBAN no 14-day letter is made (issue 19).
await caseSystem.saveLetterDetails(
  store.database,
  issued.record.organisationId,
  { iban: "NL91ABNA0417164300", street: "Benchstraat 1", postal_code: "1000 AA", city: "Amsterdam" },
  new Date(),
);

function order(i: number): Request {
  return new Request("http://x/api/v1/orders", {
    method: "POST",
    headers: { authorization: `Bearer ${issued.key}`, "content-type": "application/json" },
    body: benchOrderBody({ type: "pre-incasso", reference: `L-${i}`, customerNumber: `${tag}-${i}`, n: i }),
  });
}

async function load(from: number, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const res = await api.fetch(order(from + i));
        if (res.status !== 201) throw new Error(`POST /orders answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
}

/** Runs `work` and returns its cost per `units`: statements, round trips, CPU, rate. */
async function measure(name: string, units: number, work: () => Promise<void>) {
  const pidsBefore = await measured.backends();
  const before = { counted: { ...counted }, node: process.cpuUsage(), pg: postgresTicks() };
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const node = process.cpuUsage(before.node);
  const after = postgresTicks();
  // Backends opened during the run count too (whatever is new and named like this run's pool).
  const pids = new Set([...pidsBefore, ...(await measured.backends())]);
  const statements = counted.statements - before.counted.statements;
  const begins = counted.begins - before.counted.begins;
  return {
    name,
    statements: statements / units,
    // In pipeline mode BEGIN travels with the statement behind it: no round trip of its own.
    roundTrips: (statements - begins) / units,
    nodeMs: (node.user + node.system) / 1000 / units,
    postgresMs: (ticksSince(before.pg, after, pids) * TICK_MS) / units,
    perSecond: (units / wallMs) * 1000,
  };
}

async function letterCount(): Promise<number> {
  const { rows } = await store.database.query<{ n: string }>("SELECT count(*) AS n FROM case_letters");
  return Number(rows[0]?.n);
}

const loadAtStart = loadavg()[0] ?? 0;
const results = [];
let lettersAfterOrders = 0;
try {
  await load(0, WARMUP);
  results.push(await measure("pre-incasso order (request path)", COUNT, () => load(WARMUP, COUNT)));
  lettersAfterOrders = await letterCount();
  // The runner exists from the letter jobs on; code from before made the letters in the requests.
  const runnerOf = (caseSystem as Record<string, unknown>).createLetterRunner as
    | ((options: { store: typeof store }) => { runOnce(): Promise<unknown[]> })
    | undefined;
  if (runnerOf !== undefined) {
    const runner = runnerOf({ store });
    const pending = WARMUP + COUNT - lettersAfterOrders;
    results.push(
      await measure("14-day letter (one runner, default settings)", pending, async () => {
        while ((await runner.runOnce()).length > 0) {}
      }),
    );
  }
  if ((await letterCount()) !== WARMUP + COUNT) {
    throw new Error(`${await letterCount()} letters for ${WARMUP + COUNT} orders`);
  }
} finally {
  await measured.drop();
}

console.log(
  `\n${COUNT} pre-incasso orders at concurrency ${CONCURRENCY} after ${WARMUP} warm-up (no letter runner in the process; ` +
    `${lettersAfterOrders} letters existed when the orders were answered); PostgreSQL pool 10 (default). ` +
    `Load average (1 min) ${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at end.\n`,
);
console.log(
  "| what | statements each | round trips each | Node CPU ms each | PostgreSQL CPU ms each (this run's backends) | per second |",
);
console.log("|---|---:|---:|---:|---:|---:|");
const f = (n: number) => n.toFixed(2);
for (const r of results) {
  console.log(
    `| ${r.name} | ${f(r.statements)} | ${f(r.roundTrips)} | ${f(r.nodeMs)} | ${f(r.postgresMs)} | ${Math.round(r.perSecond)} |`,
  );
}
