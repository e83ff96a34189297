// Benchmark helper of ocr-memory.bench.ts, run as a worker thread as a PDF worker is: reads the
// given scans with ocr-pages.mjs under a memory budget, keeping OCR within it as the PDF worker's
// watchdog does (every 10 ms), and reports per file the pages read and the peak of what the budget
// counts: the thread's own ArrayBuffers and heap, and OCR's memory (canvas, recogniser).
import { parentPort, workerData } from "node:worker_threads";
import { getDocumentProxy } from "unpdf";
import { holdOcrWithin, loadOcrTools, ocrPages } from "../src/internal/ocr-pages.mjs";

const { files, maxMemoryBytes } = workerData;
const tools = await loadOcrTools();
if (!tools.ok) throw new Error(tools.reason);
let peak = { own: 0, ocr: 0 };
const watchdog = setInterval(() => {
  const usage = process.memoryUsage();
  const own = usage.arrayBuffers + usage.heapUsed;
  const ocr = holdOcrWithin(maxMemoryBytes - own);
  if (own + ocr > peak.own + peak.ocr) peak = { own, ocr };
}, 10);
for (const bytes of files) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    verbosity: 0,
    CanvasFactory: tools.CanvasFactory,
  });
  const pages = Array.from({ length: pdf.numPages }, (_, i) => i + 1);
  const read = await ocrPages(pdf, pages, { budgetMs: 600_000, maxMemoryBytes });
  parentPort?.postMessage({ read: read.texts.size, pages: pages.length, ...peak });
  peak = { own: 0, ocr: 0 };
  await pdf.destroy();
}
clearInterval(watchdog);
process.exit(0);
