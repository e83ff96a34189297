// Benchmark: the offline document check on real invoices (issue 30). Reads the invoice PDFs in
// ../shared/data/invoices (not part of the project; skipped when absent), declares for each one the
// true total from manifest.json, that total plus 10%, and the total with two adjacent digits
// swapped, and counts per language: wrong totals caught, false alarms at the true total, totals read
// exactly, and the time per PDF (text extraction plus the check, on the calling thread). Then, when
// the optional OCR packages are installed, the same for scans: a few of the invoices rendered as
// image-only PDFs here at run time (never stored), read by OCR in a PDF engine's worker under the
// default limits (BENCH_OCR_FILES per language, default 3; 0 skips it), with the peak rise of the
// process RSS while they are read (BENCH_OCR_MEMORY_MB sets the parse memory budget, default 256).
// Run: pnpm bench documents
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { CheckableAttachment, DeclaredDebtor, DocumentChecker } from "../src/document-check-types.js";
import { inspectPdf } from "../src/inspect-pdf.js";
import { readAttachmentFacts } from "../src/internal/attachment-facts.js";
import { startFakeOpenAI } from "../src/internal/testing/fake-openai.js";
import { silentLogger } from "../src/logger.js";
import { createPdfEngine, ocrAvailability } from "../src/node.js";
import { createOpenAIDocumentChecker } from "../src/openai-document-checker.js";
import { createRulesDocumentChecker } from "../src/rules-document-checker.js";
import { runDocumentCheck } from "../src/run-document-check.js";
import { standInAnswer } from "./openai-stand-in.js";
import { renderScan } from "./render-scan.js";

interface Entry {
  file: string;
  language: string;
  true_total_cents: number;
  invoice_number: string | null;
}

const root = new URL("../../..", import.meta.url).pathname;
const folder = process.env.INVOICES_DIR ?? join(root, "..", "shared", "data", "invoices");
const manifestPath = join(folder, "manifest.json");
if (!existsSync(manifestPath)) {
  console.log(`skipped: no invoice set at ${folder} (it is not part of the project)`);
  process.exit(0);
}
const entries = (JSON.parse(readFileSync(manifestPath, "utf8")) as { entries: Entry[] }).entries;
const verbose = process.argv.includes("--verbose") || process.env.BENCH_VERBOSE === "1";
// BENCH_TEXT_ONLY=1 leaves the embedded XML out, to measure the text reader alone.
const textOnly = process.env.BENCH_TEXT_ONLY === "1";

const debtor: DeclaredDebtor = {
  type: "business",
  company_name: "Voorbeeld B.V.",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
};
let checker: DocumentChecker = createRulesDocumentChecker();
// The OpenAI checker is also sent the PDF itself, as in production.
let sendBytes = false;

/** The amount with its first pair of different adjacent digits swapped: 52987 becomes 25987. */
function swapDigits(cents: number): number {
  const d = String(cents).split("");
  for (let i = 0; i + 1 < d.length; i++) {
    if (d[i] !== d[i + 1]) {
      [d[i], d[i + 1]] = [d[i + 1] as string, d[i] as string];
      return Number(d.join(""));
    }
  }
  return cents + 100;
}

async function warns(
  attachment: CheckableAttachment,
  invoiceNumber: string,
  amount: number,
): Promise<boolean> {
  const warnings = await runDocumentCheck(
    checker,
    {
      debtors: [debtor],
      invoices: [{ invoice_number: invoiceNumber, amount_cents: amount }],
      attachments: [attachment],
    },
    { logger: silentLogger },
  );
  return warnings.some((w) => w.code === "ai_invoice_mismatch");
}

interface Row {
  n: number;
  caught: number;
  wrong: number;
  falseAlarms: number;
  exact: number;
  ms: number[];
  /** CPU time of the whole process (every thread) per PDF: comparable on a busy machine. */
  cpuMs: number[];
  checkMs: number[];
}
let rows = new Map<string, Row>();
const row = (key: string): Row => {
  let r = rows.get(key);
  if (!r) {
    r = { n: 0, caught: 0, wrong: 0, falseAlarms: 0, exact: 0, ms: [], cpuMs: [], checkMs: [] };
    rows.set(key, r);
  }
  return r;
};

// One warm-up so the first file does not carry pdf.js's start-up.
{
  const first = entries[0];
  if (first) await inspectPdf(new Uint8Array(readFileSync(join(folder, first.file))));
}

for (const entry of entries) {
  const bytes = new Uint8Array(readFileSync(join(folder, entry.file)));
  await measure(entry, bytes, (b) => inspectPdf(b));
}

async function measure(
  entry: Entry,
  bytes: Uint8Array,
  inspect: (bytes: Uint8Array) => ReturnType<typeof inspectPdf>,
): Promise<void> {
  const invoiceNumber = entry.invoice_number ?? "ONBEKEND-1";
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const inspected = await inspect(bytes);
  if (!inspected.ok) {
    console.log(`${entry.file}: not readable (${inspected.code})`);
    return;
  }
  const attachment: CheckableAttachment = {
    index: 0,
    filename: entry.file.replace(/^.*\//, ""),
    document_type: "invoice",
    text: inspected.text,
    page_count: inspected.page_count,
    embedded_xml: textOnly ? [] : inspected.embedded_xml,
    ocr_pages: inspected.ocr.pages,
    ...(sendBytes ? { bytes } : {}),
  };
  const checkStarted = performance.now();
  const falseAlarm = await warns(attachment, invoiceNumber, entry.true_total_cents);
  const ended = performance.now();
  const ms = ended - started;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const checkMs = ended - checkStarted;
  const plus10 = await warns(attachment, invoiceNumber, Math.round(entry.true_total_cents * 1.1));
  const swapped = await warns(attachment, invoiceNumber, swapDigits(entry.true_total_cents));
  const read = readAttachmentFacts(attachment).totalCents;
  for (const r of [row(entry.language), row("all")]) {
    r.n++;
    r.wrong += 2;
    r.caught += Number(plus10) + Number(swapped);
    r.falseAlarms += Number(falseAlarm);
    r.exact += Number(read === entry.true_total_cents);
    r.ms.push(ms);
    r.cpuMs.push(cpuMs);
    r.checkMs.push(checkMs);
  }
  if (verbose || read !== entry.true_total_cents || falseAlarm || !plus10 || !swapped) {
    console.log(
      `${entry.file}: read ${read} true ${entry.true_total_cents}${falseAlarm ? " FALSE ALARM" : ""}${plus10 ? "" : " missed+10%"}${swapped ? "" : " missed-swap"} ${ms.toFixed(0)} ms`,
    );
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

function report(title: string): void {
  console.log(title);
  console.log(
    "| language | PDFs | wrong totals caught | false alarms | totals read exactly | median ms | p95 ms | CPU median ms | CPU p95 ms | check median ms | check p95 ms |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const order = [...rows.keys()].filter((k) => k !== "all").sort();
  for (const key of [...order, "all"]) {
    const r = rows.get(key) as Row;
    console.log(
      `| ${key} | ${r.n} | ${r.caught}/${r.wrong} | ${r.falseAlarms} | ${r.exact}/${r.n} | ${quantile(r.ms, 0.5).toFixed(0)} | ${quantile(r.ms, 0.95).toFixed(0)} | ${quantile(r.cpuMs, 0.5).toFixed(0)} | ${quantile(r.cpuMs, 0.95).toFixed(0)} | ${quantile(r.checkMs, 0.5).toFixed(1)} | ${quantile(r.checkMs, 0.95).toFixed(1)} |`,
    );
  }
}

report(
  `\n${textOnly ? "Text only (embedded XML left out)" : "Embedded XML first, then the text"}. ms: reading the PDF (pdf.js on this thread) and the check; check ms: the check alone.\n`,
);

// The OpenAI checker over the same PDFs, against a stand-in on 127.0.0.1 that answers from the
// facts the checker sends (issue 30, point 7): what reaches a model, measured by the same harness.
{
  const standIn = await startFakeOpenAI({ respond: standInAnswer });
  checker = createOpenAIDocumentChecker({ apiKey: "sk-bench", baseURL: standIn.baseURL, maxRetries: 0 });
  sendBytes = true;
  rows = new Map();
  try {
    for (const entry of entries) {
      const bytes = new Uint8Array(readFileSync(join(folder, entry.file)));
      await measure(entry, bytes, (b) => inspectPdf(b));
    }
  } finally {
    await standIn.close();
    checker = createRulesDocumentChecker();
    sendBytes = false;
  }
  report(
    "\nThe OpenAI checker (PDF, text and read_facts sent) against a stand-in that trusts read_facts. check ms: one request and answer on 127.0.0.1.\n",
  );
}

// Scans: a few invoices per language rendered as image-only PDFs, read by OCR in a worker.
const perLanguage = Number(process.env.BENCH_OCR_FILES ?? 3);
const ocr = ocrAvailability();
if (perLanguage > 0 && !ocr.available) {
  console.log(`\nWith OCR: skipped, not installed (${ocr.missing.join(", ")}).`);
} else if (perLanguage > 0) {
  const picked = new Map<string, Entry[]>();
  for (const entry of entries) {
    const list = picked.get(entry.language) ?? [];
    if (list.length < perLanguage) picked.set(entry.language, [...list, entry]);
  }
  const engine = createPdfEngine({ workers: 1 });
  // BENCH_OCR_BUDGET_MS measures the reading apart from the default time budget (8 000 ms per PDF,
  // within a parse time-out of 10 000 ms) on a machine too busy for it.
  const budget = process.env.BENCH_OCR_BUDGET_MS ? Number(process.env.BENCH_OCR_BUDGET_MS) : undefined;
  // BENCH_OCR_MEMORY_MB: the parse memory budget OCR counts in (default 256 MiB); a large value
  // measures OCR without a bound.
  const memoryMb = process.env.BENCH_OCR_MEMORY_MB ? Number(process.env.BENCH_OCR_MEMORY_MB) : undefined;
  const limits = {
    ...(budget ? { ocrBudgetMs: budget, parseTimeoutMs: budget + 2_000 } : {}),
    ...(memoryMb ? { parseMemoryMb: memoryMb } : {}),
  };
  rows = new Map();
  const pages: number[] = [];
  // The peak rise of the process RSS (every thread: the PDF worker, its recogniser, this one) over
  // its value before the worker's first scan, sampled every 2 ms.
  let rssBefore = 0;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 2);
  try {
    const scans: Array<{ entry: Entry; scan: Uint8Array }> = [];
    for (const entry of [...picked.values()].flat()) {
      const scan = await renderScan(new Uint8Array(readFileSync(join(folder, entry.file))), { maxPages: 3 });
      scans.push({ entry, scan: scan.bytes });
      pages.push(scan.pages);
    }
    // The baseline is a worker that has read a text PDF (pdf.js loaded), so the rise is what
    // reading scans adds: the recogniser thread and the pages.
    const text = entries[0];
    if (text) await inspectPdf(new Uint8Array(readFileSync(join(folder, text.file))), { engine, limits });
    global.gc?.();
    rssBefore = process.memoryUsage.rss();
    rssPeak = rssBefore;
    // One warm-up: the worker's first scan also loads the OCR models.
    const first = scans[0];
    if (first) await inspectPdf(first.scan, { engine, limits });
    for (const { entry, scan } of scans) {
      await measure({ ...entry, file: `${entry.file} (scan)` }, scan, (b) =>
        inspectPdf(b, { engine, limits }),
      );
    }
  } finally {
    clearInterval(sampler);
    await engine.close();
  }
  report(
    `\nPeak extra RSS while reading the scans, over a worker that had read a text PDF: ${Math.round((rssPeak - rssBefore) / 1048576)} MB (parse memory budget ${memoryMb ?? 256} MiB).\nWith OCR: ${pages.length} invoices rendered as image-only PDFs at 200 dpi (${pages.reduce((a, b) => a + b, 0)} pages, at most 3 each), read in one PDF worker, OCR budget ${budget ?? 8_000} ms per PDF${budget ? "" : " (the default)"}. ms: the parse with OCR and the check; CPU ms: every thread of the process.\n`,
  );
}
