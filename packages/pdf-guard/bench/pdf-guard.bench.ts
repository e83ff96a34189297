// Benchmark: attachment check plus text extraction for PDFs of about 100 KB, 1 MB and 10 MB, with
// peak memory, and the rules checker for an order with 30 attachments.
// Run: pnpm exec tsx packages/pdf-guard/bench/pdf-guard.bench.ts
import { performance } from "node:perf_hooks";
import { checkAttachments } from "../src/check-attachments.js";
import type { CheckableAttachment } from "../src/document-check-types.js";
import { inspectPdf } from "../src/inspect-pdf.js";
import { invoiceLines, makeTextPdf, toBase64, wikLetterLines } from "../src/internal/testing/fixtures.js";
import { silentLogger } from "../src/logger.js";
import { getPdfEngine } from "../src/node.js";
import { createRulesDocumentChecker } from "../src/rules-document-checker.js";
import { runDocumentCheck } from "../src/run-document-check.js";

const WARMUP = 2;
const RUNS = 8;

function pages(n: number): string[][] {
  return Array.from({ length: n }, (_, p) => [
    ...invoiceLines({ number: `F-2026-${String(p + 1).padStart(3, "0")}`, total: "€ 1.250,00" }),
    ...Array.from(
      { length: 30 },
      (_, i) => `Regel ${i + 1}: onderhoud en reparatie volgens offerte, uren en materiaal.`,
    ),
  ]);
}

async function pdfOfSize(target: number, pageCount: number): Promise<Uint8Array> {
  const bare = await makeTextPdf({ pages: pages(pageCount) });
  // Incompressible padding (as images would be) brings the file to the target size.
  return makeTextPdf({ pages: pages(pageCount), paddingBytes: Math.max(0, target - bare.length - 200) });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure<T>(fn: () => Promise<T>): Promise<{ ms: number[]; peakMb: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  clearInterval(sampler);
  return { ms, peakMb: (peak - base) / 1024 / 1024 };
}

const rows: string[] = [];
for (const [label, size, pageCount] of [
  ["100 KB", 100_000, 5],
  ["1 MB", 1_000_000, 20],
  ["10 MB", 10_000_000, 50],
] as const) {
  const pdf = await pdfOfSize(size, pageCount);
  const base64 = toBase64(pdf);
  const worker = await measure(() =>
    checkAttachments([{ filename: "f.pdf", content_base64: base64 }], { engine: getPdfEngine() }),
  );
  const inline = await measure(() => checkAttachments([{ filename: "f.pdf", content_base64: base64 }]));
  const check = await inspectPdf(pdf, { engine: getPdfEngine() });
  rows.push(
    `| ${label} (${pdf.length} bytes, ${pageCount} pages, ${check.ok ? check.text.length : 0} chars) | ${median(worker.ms).toFixed(0)} | ${Math.max(...worker.ms).toFixed(0)} | ${worker.peakMb.toFixed(0)} | ${median(inline.ms).toFixed(0)} | ${inline.peakMb.toFixed(0)} |`,
  );
}

console.log(
  `checkAttachments, one PDF (decode + structure + text), median of ${RUNS} after ${WARMUP} warm-up runs\n`,
);
console.log(
  "| file | worker: median ms | worker: max ms | worker: peak extra RSS MB | in-process: median ms | in-process: peak extra RSS MB |",
);
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);

// An order with 15 invoices, each with its 14-day letter: 30 attachments (spec POST /orders rule 5).
const attachments: CheckableAttachment[] = [];
const invoices = [];
for (let i = 0; i < 15; i++) {
  const number = `F-2026-${String(i + 1).padStart(3, "0")}`;
  invoices.push({ invoice_number: number, amount_cents: 125000 });
  for (const [kind, lines] of [
    ["invoice", invoiceLines({ number, total: "€ 1.250,00", vat: "NL000099998B57" })],
    [
      "wik_letter",
      wikLetterLines({ invoice: number, principal: "€ 1.250,00", costs: "€ 187,50", vat: "NL000099998B57" }),
    ],
  ] as const) {
    const r = await inspectPdf(await makeTextPdf({ pages: [lines] }));
    if (!r.ok) throw new Error(r.code);
    attachments.push({
      index: attachments.length,
      filename: `${kind}-${i}.pdf`,
      document_type: kind,
      text: r.text,
      page_count: 1,
    });
  }
}
const debtors = [
  {
    type: "individual" as const,
    last_name: "Tester",
    address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
  },
];
const checker = createRulesDocumentChecker();
const rules = await measure(() =>
  runDocumentCheck(checker, { debtors, invoices, attachments }, { logger: silentLogger }),
);
console.log(`\nRules checker, order with 15 invoices and 30 attachments (text already extracted)\n`);
console.log("| case | median ms | max ms |");
console.log("|---|---:|---:|");
console.log(`| 30 attachments | ${median(rules.ms).toFixed(2)} | ${Math.max(...rules.ms).toFixed(2)} |`);
