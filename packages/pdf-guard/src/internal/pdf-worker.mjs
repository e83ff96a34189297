// Job module of the PDF worker threads (run by piscina): opens one PDF at a time with pdf.js
// (through unpdf) and reports its page count, text and encryption. It is plain JavaScript on
// purpose: Node starts a worker from a file, and this file (with parse-pdf.mjs) is copied verbatim
// next to the built bundle, so the source and the build run the same code (decision
// pdf-guard-hostile-pdf-bounds).
//
// Task: { id, bytes, maxTextChars, maxMemoryBytes, ocrBudgetMs }; the answer is the parse outcome. Besides it
// the job posts { id, started: true } on the thread's parent port when it receives the file (the
// pool's time limit starts then) and, from the watchdog, { id, outcome } before it ends the thread.
import { parentPort } from "node:worker_threads";
import { getResolvedPDFJS } from "unpdf";
import { holdOcrWithin, parsePdf } from "./parse-pdf.mjs";

// How often the memory watchdog looks. pdf.js yields to the event loop between slices of work
// (about every 20 ms), so the watchdog runs while a stream is being decoded.
const WATCH_INTERVAL_MS = 10;

// Load pdf.js while the module loads: piscina calls a thread ready only after that, so a broken
// installation shows up as an engine failure and never as a refusal of the client's file.
await getResolvedPDFJS();

/** Parses one file; see the protocol above. */
export default async function parsePdfJob(request) {
  parentPort?.postMessage({ id: request.id, started: true });
  // resourceLimits caps the V8 heap only. Decoded PDF streams live in ArrayBuffers outside that
  // heap, so a compression bomb (a few hundred KB that inflate to gigabytes) would pass it. This
  // watchdog counts this thread's ArrayBuffers plus heap and ends the thread when they exceed
  // the budget. OCR's memory (the canvas of a page being rendered, the recogniser thread with its
  // WebAssembly memory) counts in the same budget, but never ends the thread: OCR is held to what
  // this thread leaves of it, and over that its page is left unread (decision pdf-guard-ocr).
  const watchdog = setInterval(() => {
    const usage = process.memoryUsage();
    const used = usage.arrayBuffers + usage.heapUsed;
    holdOcrWithin(request.maxMemoryBytes - used);
    if (used > request.maxMemoryBytes) {
      parentPort?.postMessage({
        id: request.id,
        outcome: {
          ok: false,
          reason: "resource_limit",
          detail: `parsing needed more than ${Math.round(request.maxMemoryBytes / 1048576)} MiB`,
        },
      });
      process.exit(1);
    }
  }, WATCH_INTERVAL_MS);
  try {
    return await parsePdf(request.bytes, {
      maxTextChars: request.maxTextChars,
      ocrBudgetMs: request.ocrBudgetMs ?? 0,
      maxMemoryBytes: request.maxMemoryBytes,
    });
  } finally {
    clearInterval(watchdog);
  }
}
