// Worker thread that opens one PDF at a time with pdf.js (through unpdf) and reports its page
// count, text and encryption. It is plain JavaScript on purpose: Node starts a worker from a file,
// and this file (with parse-pdf.mjs) is copied verbatim next to the built bundle, so the source and
// the build run the same code (decision pdf-guard-hostile-pdf-bounds).
//
// Protocol: the parent posts { id, bytes, maxTextChars, maxMemoryBytes, ocrBudgetMs }; the worker answers
// { type: "ready" } once pdf.js is loaded, then { id, outcome } per request.
import { isMainThread, parentPort } from "node:worker_threads";
import { parsePdf } from "./parse-pdf.mjs";

// How often the memory watchdog looks. pdf.js yields to the event loop between slices of work
// (about every 20 ms), so the watchdog runs while a stream is being decoded.
const WATCH_INTERVAL_MS = 10;

if (!isMainThread && parentPort) {
  const port = parentPort;
  // Load pdf.js before saying "ready", so a broken installation shows up as an engine failure and
  // never as a refusal of the client's file.
  const { getResolvedPDFJS } = await import("unpdf");
  await getResolvedPDFJS();
  port.on("message", async (request) => {
    // resourceLimits caps the V8 heap only. Decoded PDF streams live in ArrayBuffers outside that
    // heap, so a compression bomb (a few hundred KB that inflate to gigabytes) would pass it. This
    // watchdog counts this thread's ArrayBuffers plus heap and ends the thread when they exceed
    // the budget.
    const watchdog = setInterval(() => {
      const usage = process.memoryUsage();
      const used = usage.arrayBuffers + usage.heapUsed;
      if (used > request.maxMemoryBytes) {
        port.postMessage({
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
      const outcome = await parsePdf(request.bytes, {
        maxTextChars: request.maxTextChars,
        ocrBudgetMs: request.ocrBudgetMs ?? 0,
      });
      port.postMessage({ id: request.id, outcome });
    } finally {
      clearInterval(watchdog);
    }
  });
  port.postMessage({ type: "ready" });
}
