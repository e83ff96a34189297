// CPU time of the main thread of `incasso serve` per order with attachments (issue 22, item 5):
// rounds of BENCH_ORDERS (default 8) concurrent orders of three PDFs of BENCH_PDF_MIB (default 2)
// MiB each, as the ping benchmark sends them, while GET /ping is timed. The figure is the user and
// system time of the server's main thread (utime and stime of /proc/PID/task/PID/stat) over the
// load, divided by the orders: unlike a latency, it hardly changes when other processes share the
// machine, so it shows whether a change took work off the thread that answers every request. The
// time of all the server's threads (PDF workers included) is given next to it.
// Run: pnpm build && pnpm exec tsx packages/app/bench/main-thread-per-order.bench.ts
// BENCH_ROUNDS (default 3), BENCH_ORDERS, BENCH_PDF_MIB, BENCH_WRAP (default 0: unwrapped base64),
// BENCH_DATABASE_URL (PostgreSQL instead of embedded PGlite), BENCH_SERVE_ARGS.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { largeOrderBody, largePdfs, percentile, postOrder } from "./large-orders.js";
import { startServe } from "./serve-process.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 8);
const PDF_MIB = Number(process.env.BENCH_PDF_MIB ?? 2);
const WRAP = Number(process.env.BENCH_WRAP ?? 0);
const extra = (process.env.BENCH_SERVE_ARGS ?? "").split(" ").filter(Boolean);
// /proc reports CPU time in clock ticks, 100 a second on Linux.
const MS_PER_TICK = 10;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** User and system ticks of one thread of `pid` (fields 14 and 15 of its stat, after the name). */
function threadTicks(pid: number, tid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

/** Ticks of all threads of `pid`; a thread that ended meanwhile is left out. */
function processTicks(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { user, system } = threadTicks(pid, Number(tid));
      total += user + system;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

const pdfs = await largePdfs(PDF_MIB);
const server = await startServe(extra);
try {
  const loadBefore = load();
  // Two orders first, so pdf.js is loaded in the workers and the code is compiled.
  for (let i = 0; i < 2; i++) await postOrder(server.url, server.key, largeOrderBody(pdfs, WRAP));
  const mainBefore = threadTicks(server.pid, server.pid);
  const allBefore = processTicks(server.pid);
  const pings: number[] = [];
  const statuses = new Map<number, number>();
  let pinging = true;
  const pinger = (async () => {
    while (pinging) {
      const started = performance.now();
      const res = await fetch(`${server.url}/ping`);
      await res.arrayBuffer();
      pings.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  let orders = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const bodies = Array.from({ length: ORDERS }, () => largeOrderBody(pdfs, WRAP));
    for (const r of await Promise.all(bodies.map((b) => postOrder(server.url, server.key, b)))) {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      orders++;
    }
  }
  pinging = false;
  await pinger;
  const mainAfter = threadTicks(server.pid, server.pid);
  const allAfter = processTicks(server.pid);
  const perOrder = (ticks: number) => ((ticks * MS_PER_TICK) / orders).toFixed(1);
  console.log(
    `${ROUNDS} rounds of ${ORDERS} concurrent orders (3 PDFs of ${PDF_MIB} MiB, ${(largeOrderBody(pdfs, WRAP).length / 1e6).toFixed(1)} MB of JSON); statuses: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}`,
  );
  console.log(
    `  main thread per order: user ${perOrder(mainAfter.user - mainBefore.user)} ms, system ${perOrder(mainAfter.system - mainBefore.system)} ms; all threads ${perOrder(allAfter - allBefore)} ms`,
  );
  console.log(
    `  GET /ping (${pings.length}): p50 ${percentile(pings, 0.5).toFixed(1)} ms, p99 ${percentile(pings, 0.99).toFixed(1)} ms; server peak RSS ${server.memory().peakMb.toFixed(0)} MiB`,
  );
  console.log(`  load average ${loadBefore} → ${load()}`);
} finally {
  await server.stop();
}
