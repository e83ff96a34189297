// Benchmark: the memory OCR takes, and the bound on it (issue 30; decision pdf-guard-ocr,
// "Memory"). Reads scans in a worker thread with ocr-pages.mjs as a PDF worker does, under parse
// memory budgets of 256 MiB (the default), 128 MiB and none, and reports per budget the pages read
// and the peak of what the budget counts: the thread's own ArrayBuffers and heap, and OCR's memory
// (the canvas, the recogniser's WebAssembly and JavaScript memory). The scans are made here: two
// A4 pages and one A2 page (rendered at 12 megapixels, the most OCR renders), drawn at 200 dpi.
// Needs the optional OCR packages. Run: pnpm bench ocr-memory
import { Worker } from "node:worker_threads";
import { makeScannedPdf } from "../src/internal/testing/scans.js";
import { ocrAvailability } from "../src/node.js";

const ocr = ocrAvailability();
if (!ocr.available) {
  console.log(`skipped: OCR not installed (${ocr.missing.join(", ")})`);
  process.exit(0);
}

const lines = Array.from({ length: 44 }, (_, i) => [
  { text: `Regel ${i + 1}: onderhoud installatie, materiaal en arbeid`, x: 60 },
  { text: `€ ${(i + 1) * 13},50`, x: 460 },
]);
const a4 = await makeScannedPdf({ pages: [lines, lines] });
const a2 = await makeScannedPdf({ pages: [lines], size: { width: 1191, height: 1684 } });
const MIB = 1048576;

async function run(label: string, files: Uint8Array[], budgetMib: number | null): Promise<void> {
  const maxMemoryBytes = budgetMib === null ? Number.POSITIVE_INFINITY : budgetMib * MIB;
  const worker = new Worker(new URL("./ocr-memory-thread.mjs", import.meta.url), {
    workerData: { files, maxMemoryBytes },
    execArgv: [],
  });
  const answers: Array<{ read: number; pages: number; own: number; ocr: number }> = [];
  worker.on("message", (m) => answers.push(m));
  await new Promise((resolve) => worker.once("exit", resolve));
  for (const [i, a] of answers.entries()) {
    console.log(
      `| ${label} #${i + 1} | ${budgetMib ?? "none"} | ${a.read}/${a.pages} | ${Math.round(a.own / MIB)} | ${Math.round(a.ocr / MIB)} | ${Math.round((a.own + a.ocr) / MIB)} |`,
    );
  }
}

console.log("| scan | budget MiB | pages read | own MiB | OCR MiB | counted MiB |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const budget of [null, 256, 128]) {
  // Two files of two A4 pages in one thread: the recogniser is kept between them.
  await run("A4, 2 pages", [a4, a4], budget);
  await run("A2, 1 page", [a2], budget);
}
console.log(
  "\nown: the thread's ArrayBuffers and heap; OCR: the canvas being drawn and the recogniser (WebAssembly and JavaScript memory); counted: their peak sum, sampled every 10 ms. The threads' code is counted by no budget.",
);
