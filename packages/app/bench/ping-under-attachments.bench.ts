// GET /ping latency while orders with attachments are checked (issue 22, item 5): rounds of
// BENCH_ORDERS (default 8) concurrent orders of three PDFs each (BENCH_PDF_MIB each, default 2, so
// all eight fit in the default body budget; 8.33 gives the per-order maximum of 25 MiB), sent to `incasso serve` in its own process, while one client sends
// GET /ping one after another (a pause of 10 ms between them) and times each answer. The target:
// /ping p99 under 100 ms. Live key, so the PDFs are stored too.
// Run: pnpm build && pnpm exec tsx packages/app/bench/ping-under-attachments.bench.ts
// BENCH_ROUNDS (default 3), BENCH_ORDERS (default 8), BENCH_DATABASE_URL (PostgreSQL instead of
// embedded PGlite), BENCH_SERVE_ARGS (more flags for serve, space-separated).
import { loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { largeOrderBody, largePdfs, percentile, postOrder } from "./large-orders.js";
import { startServe } from "./serve-process.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 8);
const extra = (process.env.BENCH_SERVE_ARGS ?? "").split(" ").filter(Boolean);

const PDF_MIB = Number(process.env.BENCH_PDF_MIB ?? 2);
const pdfs = await largePdfs(PDF_MIB);
const server = await startServe(extra);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
try {
  const loadBefore = load();
  // Warm-up: one order, so pdf.js is loaded in the workers and the first parse is not counted.
  await postOrder(server.url, server.key, largeOrderBody(pdfs));
  // Every body is built before the pinging starts, and the pings are sent and timed from a
  // worker thread of their own: building 67 MB of JSON or uploading it on this thread would stall
  // the pinger's event loop and count the load generator's own pauses as the server's.
  const rounds = Array.from({ length: ROUNDS }, () =>
    Array.from({ length: ORDERS }, () => largeOrderBody(pdfs)),
  );
  const statuses = new Map<number, number>();
  const orderMs: number[] = [];
  const pinger = new Worker(
    `
    const { parentPort, workerData } = require("node:worker_threads");
    const pings = [];
    const failures = [];
    let pinging = true;
    parentPort.on("message", () => { pinging = false; });
    (async () => {
      while (pinging) {
        const started = performance.now();
        try {
          const res = await fetch(workerData.url + "/ping");
          await res.arrayBuffer();
          if (res.status === 200) pings.push(performance.now() - started);
          else failures.push(String(res.status));
        } catch (error) {
          failures.push(String(error?.cause?.code ?? error));
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      parentPort.postMessage({ pings, failures });
    })();
    `,
    { eval: true, workerData: { url: server.url } },
  );
  const pinged = new Promise<{ pings: number[]; failures: string[] }>((resolve) =>
    pinger.once("message", resolve),
  );
  const started = performance.now();
  for (const bodies of rounds) {
    const results = await Promise.all(bodies.map((b) => postOrder(server.url, server.key, b)));
    for (const r of results) {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      orderMs.push(r.ms);
    }
  }
  const wallMs = performance.now() - started;
  pinger.postMessage("stop");
  const { pings, failures: pingFailures } = await pinged;
  await pinger.terminate();
  const ms = (v: number) => v.toFixed(1);
  console.log(
    `${ROUNDS} rounds of ${ORDERS} concurrent orders (3 PDFs of ${PDF_MIB} MiB, ${(largeOrderBody(pdfs).length / 1e6).toFixed(1)} MB of JSON) in ${(wallMs / 1000).toFixed(1)} s`,
  );
  console.log(`  order statuses: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}`);
  console.log(`  order time: p50 ${ms(percentile(orderMs, 0.5))} ms, max ${ms(Math.max(...orderMs))} ms`);
  console.log(
    `  GET /ping (${pings.length} during the load): p50 ${ms(percentile(pings, 0.5))} ms, p99 ${ms(percentile(pings, 0.99))} ms, max ${ms(Math.max(...pings))} ms; target p99 < 100 ms${pingFailures.length ? `; failed: ${pingFailures.join(", ")}` : ""}`,
  );
  console.log(
    `  server peak RSS ${server.memory().peakMb.toFixed(0)} MiB; load average ${loadBefore} → ${load()}`,
  );
} finally {
  await server.stop();
}
