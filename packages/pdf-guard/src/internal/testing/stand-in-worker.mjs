// A stand-in for pdf-worker.mjs, for the pool tests only: a piscina job module with the same task
// and messages, without pdf.js, and the first bytes of each "file" say what to do, so waits and
// hangs are under the test's control. workerData.hangOnStart: never finish loading.
//   "ok"          answer at once with a one-page outcome
//   "wait <ms>"   answer after <ms>
//   "hang"        never answer
//   "exit"        answer resource_limit, then end the thread (as the memory watchdog does)
import { parentPort, workerData } from "node:worker_threads";

if (workerData?.hangOnStart) {
  // Keep the thread alive without ever finishing the module, so piscina never hears "ready".
  await new Promise(() => setInterval(() => undefined, 60_000));
}

export default function standIn(task) {
  parentPort?.postMessage({ id: task.id, started: true });
  const command = new TextDecoder().decode(task.bytes);
  const outcome = {
    ok: true,
    page_count: 1,
    pages: [command],
    text_truncated: false,
    encryption: "none",
    pdf_version: "1.7",
  };
  if (command === "hang") return new Promise(() => undefined);
  if (command === "exit") {
    parentPort?.postMessage({
      id: task.id,
      outcome: { ok: false, reason: "resource_limit", detail: "watchdog" },
    });
    process.exit(1);
  }
  const wait = /^wait (\d+)$/.exec(command);
  return new Promise((resolve) => setTimeout(() => resolve(outcome), wait ? Number(wait[1]) : 0));
}
