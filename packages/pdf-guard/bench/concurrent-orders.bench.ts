// Benchmark: 16 orders checked at the same time, each with two valid PDFs of about 10 MB, on the
// process-wide PDF engine (decision pdf-guard-pdf-engine). Reports how many files were accepted,
// the wall time and the peak rise of RSS.
// Run: pnpm exec tsx packages/pdf-guard/bench/concurrent-orders.bench.ts
import { performance } from "node:perf_hooks";
import { checkAttachments } from "../src/check-attachments.js";
import { invoiceLines, makeTextPdf, toBase64 } from "../src/internal/testing/fixtures.js";
import { closePdfEngine, getPdfEngine } from "../src/node.js";

const ORDERS = 16;
const pages = Array.from({ length: 50 }, (_, p) =>
  invoiceLines({ number: `F-2026-${String(p + 1).padStart(3, "0")}`, total: "€ 1.250,00" }),
);
const pdf = await makeTextPdf({ pages, paddingBytes: 10_000_000 });
const order = [
  { filename: "a.pdf", content_base64: toBase64(pdf) },
  { filename: "b.pdf", content_base64: toBase64(pdf) },
];

// Warm-up: one order starts the workers and loads pdf.js in each.
await Promise.all([
  checkAttachments(order, { engine: getPdfEngine() }),
  checkAttachments(order, { engine: getPdfEngine() }),
]);
(globalThis as { gc?: () => void }).gc?.();

const base = process.memoryUsage.rss();
let peak = base;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 2);
const t0 = performance.now();
const results = await Promise.all(
  Array.from({ length: ORDERS }, () => checkAttachments(order, { engine: getPdfEngine() })),
);
const ms = performance.now() - t0;
clearInterval(sampler);
const accepted = results.flatMap((r) => r.attachments).filter((a) => a.status === "accepted").length;
const refused = results.flatMap((r) => r.errors.map((e) => e.code));
const { workers } = getPdfEngine().stats();
await closePdfEngine();

console.log(`${ORDERS} concurrent orders, two PDFs of ${pdf.length} bytes each, after a warm-up\n`);
console.log("| workers | files | accepted | refusal codes | wall ms | peak extra RSS MB |");
console.log("|---:|---:|---:|---|---:|---:|");
console.log(
  `| ${workers} | ${ORDERS * 2} | ${accepted} | ${refused.length === 0 ? "none" : refused.join(", ")} | ${ms.toFixed(0)} | ${((peak - base) / 1048576).toFixed(0)} |`,
);
