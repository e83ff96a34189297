// A stand-in for pdf-worker.mjs, for the pool tests only: it speaks the same protocol without
// pdf.js, and the first bytes of each "file" say what to do, so waits and hangs are under the
// test's control. workerData.hangOnStart: never say ready.
//   "ok"          answer at once with a one-page outcome
//   "wait <ms>"   answer after <ms>
//   "hang"        never answer
//   "exit"        answer resource_limit, then end the thread (as the memory watchdog does)
import { parentPort, workerData } from "node:worker_threads";

if (parentPort && !workerData?.hangOnStart) {
  const port = parentPort;
  port.on("message", (request) => {
    const command = new TextDecoder().decode(request.bytes);
    const outcome = {
      ok: true,
      page_count: 1,
      pages: [command],
      text_truncated: false,
      encryption: "none",
      pdf_version: "1.7",
    };
    if (command === "hang") return;
    if (command === "exit") {
      port.postMessage({
        id: request.id,
        outcome: { ok: false, reason: "resource_limit", detail: "watchdog" },
      });
      process.exit(1);
    }
    const wait = /^wait (\d+)$/.exec(command);
    setTimeout(() => port.postMessage({ id: request.id, outcome }), wait ? Number(wait[1]) : 0);
  });
  port.postMessage({ type: "ready" });
} else if (parentPort) {
  // Keep the thread alive without ever answering.
  setInterval(() => undefined, 60_000);
}
