// Peak memory of `incasso serve` with 24 concurrent 39 MB orders (issue 22, item 4): three PDFs of
// 25 MiB together, their base64 wrapped every 34 characters (CRLF, four bytes each as JSON escapes; accepted and
// skipped) so each body is 39 MB. The server runs in its own process; its peak resident set is
// VmHWM of /proc/PID/status. The target: under 700 MB. Orders past the body budget get 503 with
// Retry-After (decision server-body-budget); an order sent after the load shows the budget free.
// Run: pnpm build && pnpm exec tsx packages/app/bench/order-memory.bench.ts
// BENCH_ORDERS (default 24), BENCH_WRAP (default 34; 0 sends unwrapped 35 MB bodies),
// BENCH_DATABASE_URL (PostgreSQL instead of embedded PGlite), BENCH_SERVE_ARGS (more flags for
// serve, such as --body-budget 512).
import { loadavg } from "node:os";
import { largeOrderBody, largePdfs, percentile, postOrder } from "./large-orders.js";
import { startServe } from "./serve-process.js";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 24);
const WRAP = Number(process.env.BENCH_WRAP ?? 34);
const extra = (process.env.BENCH_SERVE_ARGS ?? "").split(" ").filter(Boolean);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const pdfs = await largePdfs();
const server = await startServe(extra);
try {
  const loadBefore = load();
  const atStart = server.memory().rssMb;
  // One order first, so pdf.js is loaded and the baseline is that of a server that has worked.
  const warm = await postOrder(server.url, server.key, largeOrderBody(pdfs, WRAP));
  const baseline = server.memory().rssMb;
  const bodies = Array.from({ length: ORDERS }, () => largeOrderBody(pdfs, WRAP));
  let peakSeen = 0;
  const sampler = setInterval(() => {
    peakSeen = Math.max(peakSeen, server.memory().rssMb);
  }, 50);
  const started = performance.now();
  const results = await Promise.all(bodies.map((b) => postOrder(server.url, server.key, b)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const after = await postOrder(server.url, server.key, largeOrderBody(pdfs, WRAP));
  const statuses = new Map<string, number>();
  for (const r of results) {
    const label = r.status === 503 ? `503 (Retry-After ${r.retryAfter})` : String(r.status);
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
  }
  const { peakMb } = server.memory();
  console.log(
    `${ORDERS} concurrent orders of ${((bodies[0]?.length ?? 0) / 1e6).toFixed(1)} MB (3 PDFs, 25 MiB) in ${(wallMs / 1000).toFixed(1)} s; warm-up order ${warm.status}`,
  );
  console.log(`  statuses: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}`);
  console.log(
    `  order time p50 ${percentile(
      results.map((r) => r.ms),
      0.5,
    ).toFixed(0)} ms; one more order after the load: ${after.status}`,
  );
  console.log(
    `  server RSS: ${atStart.toFixed(0)} MiB at start, ${baseline.toFixed(0)} MiB after the warm-up order, peak ${peakMb.toFixed(0)} MiB (VmHWM; ${peakSeen.toFixed(0)} MiB sampled during the load); target < 700 MB`,
  );
  console.log(`  load average ${loadBefore} → ${load()}`);
} finally {
  await server.stop();
}
