import { Worker } from "node:worker_threads";
import { PdfGuardError } from "../errors.js";
import type { PdfParseOutcome } from "./parse-pdf.mjs";

/** Why a parse ended without an answer from pdf.js. */
export type PdfPoolFailure = { ok: false; reason: "timeout" | "resource_limit"; detail: string };

/** Settings of a {@link PdfWorkerPool}; see `PdfEngineOptions` for the public meaning. */
export interface PdfWorkerPoolOptions {
  /** Most worker threads alive at once. */
  size: number;
  /** V8 heap cap of each worker, in MiB. */
  heapLimitMb: number;
  /** Longest a worker may take to load pdf.js and say it is ready. */
  startupTimeoutMs: number;
  /** Longest a file may wait in the queue for a free worker. */
  maxQueueWaitMs: number;
  /** The worker script and its data; tests pass a stand-in. */
  workerUrl?: URL;
  workerData?: unknown;
}

/** What one parse needs; the clock of `timeoutMs` starts when a worker receives the file. */
export interface PdfParseJob {
  timeoutMs: number;
  maxTextChars: number;
  maxMemoryBytes: number;
  /** Time the file's scanned pages may take to be read by OCR, ms; 0 or left out: no OCR. */
  ocrBudgetMs?: number;
  /** Aborting removes the file from the queue; a parse already running is left to finish. */
  signal?: AbortSignal | undefined;
}

/** Counters for tests, benchmarks and health checks. */
export interface PdfWorkerPoolStats {
  /** Worker threads alive now (starting, idle or busy). */
  workers: number;
  /** Workers parsing now. */
  busy: number;
  /** Workers ready for a file now. */
  idle: number;
  /** Files waiting for a worker. */
  queued: number;
  /** Workers started since the pool was made. */
  started: number;
  /** Most workers alive at the same moment. */
  peakWorkers: number;
}

/** Worker threads shared by every caller, each parsing one PDF at a time, fed from one queue. */
export interface PdfWorkerPool {
  parse(bytes: Uint8Array, job: PdfParseJob): Promise<PdfParseOutcome | PdfPoolFailure>;
  stats(): PdfWorkerPoolStats;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  state: "starting" | "idle" | "busy";
  /** While busy: ends the running parse with an error (used by `close`). */
  stop: ((error: unknown) => void) | null;
}

interface Queued {
  bytes: Uint8Array;
  job: PdfParseJob;
  resolve: (outcome: PdfParseOutcome | PdfPoolFailure) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
  onAbort: (() => void) | null;
}

const WORKER_URL = new URL("./pdf-worker.mjs", import.meta.url);

/**
 * The engine behind `PdfEngine`. Workers start lazily (at most `size`), load pdf.js once and then
 * take file after file from one FIFO queue, so the number of parses and their memory are bounded
 * per process however many orders arrive at once (decision pdf-guard-pdf-engine).
 *
 * Bounds:
 * - per file: `resourceLimits` caps the worker's V8 heap, the worker's watchdog caps heap plus
 *   ArrayBuffers, and a timer that starts when the worker receives the file ends a parse that takes
 *   too long (decision pdf-guard-hostile-pdf-bounds); such a worker is replaced;
 * - per wait: a file that found no free worker within `maxQueueWaitMs` is rejected with a 503
 *   `pdf_engine_busy` error, which says the server is busy and says nothing about the file;
 * - per start: a worker that does not become ready within `startupTimeoutMs` is ended; when no
 *   worker is ready at all, the waiting files are rejected with a 500 `pdf_engine_unavailable`.
 *
 * Idle workers are unref'd, so they never keep the process alive; busy ones are ref'd, so a script
 * that awaits a check does not exit half-way.
 */
export function createPdfWorkerPool(options: PdfWorkerPoolOptions): PdfWorkerPool {
  const workerUrl = options.workerUrl ?? WORKER_URL;
  const slots: Slot[] = [];
  const queue: Queued[] = [];
  let nextId = 0;
  let closed = false;
  let started = 0;
  let peakWorkers = 0;

  function spawn(): void {
    const worker = new Worker(workerUrl, {
      // The worker is plain JavaScript: it needs none of the parent's loader flags (a TypeScript
      // loader in development would otherwise transform pdf.js on every start).
      execArgv: [],
      workerData: options.workerData,
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapLimitMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.floor(options.heapLimitMb / 8))),
        stackSizeMb: 4,
      },
    });
    const slot: Slot = { worker, state: "starting", stop: null };
    slots.push(slot);
    // A worker that ends on its own (its watchdog exits after answering) must never get a file.
    worker.once("exit", () => forget(slot));
    started++;
    peakWorkers = Math.max(peakWorkers, slots.length);
    const fail = (error: unknown) => {
      cleanup();
      retire(slot);
      startFailed(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`the PDF worker did not start within ${options.startupTimeoutMs} ms`)),
      options.startupTimeoutMs,
    );
    const onMessage = (message: unknown) => {
      if (!isReady(message)) return;
      cleanup();
      slot.state = "idle";
      worker.unref();
      pump();
    };
    const onError = (error: unknown) => fail(error);
    const onExit = (code: number) =>
      fail(new Error(`the PDF worker stopped while starting (exit code ${code})`));
    function cleanup() {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    }
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  }

  // A worker that cannot start is most likely a broken installation, not a busy server: when no
  // worker is ready to take the waiting files, they fail now instead of at the queue limit.
  function startFailed(cause: unknown): void {
    // Ready workers will take the queue (and try another start when they finish a file); other
    // workers still starting may yet succeed.
    if (closed || slots.length > 0) return;
    const error = new PdfGuardError({
      status: 500,
      code: "pdf_engine_unavailable",
      detail: "The PDF engine could not be started.",
      cause,
    });
    for (const item of queue.splice(0)) settle(item).reject(error);
  }

  function forget(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
  }

  function retire(slot: Slot): void {
    forget(slot);
    void slot.worker.terminate();
  }

  // Takes an item off the queue for good: its wait timer and abort listener are removed.
  function settle(item: Queued): Queued {
    clearTimeout(item.timer);
    if (item.onAbort) item.job.signal?.removeEventListener("abort", item.onAbort);
    return item;
  }

  function pump(): void {
    if (closed) return;
    for (;;) {
      if (queue.length === 0) return;
      const idle = slots.find((s) => s.state === "idle");
      if (idle) {
        run(idle, settle(queue.shift() as Queued));
        continue;
      }
      const starting = slots.filter((s) => s.state === "starting").length;
      if (starting < queue.length && slots.length < options.size) {
        spawn();
        continue;
      }
      return;
    }
  }

  function run(slot: Slot, item: Queued): void {
    slot.state = "busy";
    slot.worker.ref();
    const id = nextId++;
    const { worker } = slot;
    const timer = setTimeout(() => {
      // A busy main thread may not have read an answer the worker posted in time: in one turn of
      // the event loop, timers run before the ports are read. The verdict waits for that read (an
      // immediate runs after it), so a file parsed in time is never refused as too slow.
      setImmediate(() =>
        finish(
          { ok: false, reason: "timeout", detail: `parsing took longer than ${item.job.timeoutMs} ms` },
          true,
        ),
      );
    }, item.job.timeoutMs);
    const onMessage = (message: unknown) => {
      if (!isAnswer(message) || message.id !== id) return;
      // The watchdog answers resource_limit and then ends its thread: replace it.
      const failed = !message.outcome.ok && message.outcome.reason === "resource_limit";
      finish(message.outcome, failed);
    };
    const onError = (error: unknown) => {
      // Node reports a heap over `resourceLimits` as ERR_WORKER_OUT_OF_MEMORY.
      if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
        finish(
          { ok: false, reason: "resource_limit", detail: "parsing needed more memory than allowed" },
          true,
        );
      } else {
        const detail = error instanceof Error ? error.message : String(error);
        finish({ ok: false, reason: "damaged", detail }, true);
      }
    };
    const onExit = () => {
      finish({ ok: false, reason: "resource_limit", detail: "the parser stopped unexpectedly" }, true);
    };
    let done = false;
    function detach() {
      done = true;
      slot.stop = null;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    }
    slot.stop = (error) => {
      if (done) return;
      detach();
      item.reject(error);
    };
    function finish(outcome: PdfParseOutcome | PdfPoolFailure, replace: boolean) {
      if (done) return;
      detach();
      if (replace) retire(slot);
      else {
        slot.state = "idle";
        worker.unref();
      }
      pump();
      // The caller goes on in an immediate, not inside this message's callback. Node reads up to
      // 1,000 messages of one port before it returns to the event loop; a caller whose follow-up
      // work is all promises (an embedded database) and outlasts a parse would otherwise always
      // find this worker's next answer waiting, and keep timers and the other workers' answers
      // out until the load ends.
      setImmediate(() => item.resolve(outcome));
    }
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    // The caller keeps its bytes: a copy goes to the worker, except of bytes in shared memory
    // (large files are decoded into a SharedArrayBuffer, base64.ts), which the worker reads where
    // they are, with no copy made on the thread that answers every request.
    worker.postMessage({
      id,
      bytes: item.bytes,
      maxTextChars: item.job.maxTextChars,
      maxMemoryBytes: item.job.maxMemoryBytes,
      ocrBudgetMs: item.job.ocrBudgetMs ?? 0,
    });
  }

  return {
    parse(bytes, job) {
      if (closed) return Promise.reject(closedError());
      if (job.signal?.aborted) return Promise.reject(job.signal.reason);
      return new Promise((resolve, reject) => {
        const item: Queued = {
          bytes,
          job,
          resolve,
          reject,
          onAbort: null,
          timer: setTimeout(() => {
            const at = queue.indexOf(item);
            if (at < 0) return;
            queue.splice(at, 1);
            settle(item).reject(
              new PdfGuardError({
                status: 503,
                code: "pdf_engine_busy",
                detail: `No PDF worker became free within ${options.maxQueueWaitMs} ms; the attachments were not judged. Try again later.`,
                retryAfterSeconds: Math.max(1, Math.ceil(options.maxQueueWaitMs / 1000)),
              }),
            );
          }, options.maxQueueWaitMs),
        };
        if (job.signal) {
          const signal = job.signal;
          item.onAbort = () => {
            const at = queue.indexOf(item);
            if (at < 0) return;
            queue.splice(at, 1);
            settle(item).reject(signal.reason);
          };
          signal.addEventListener("abort", item.onAbort, { once: true });
        }
        queue.push(item);
        pump();
      });
    },
    stats() {
      return {
        workers: slots.length,
        busy: slots.filter((s) => s.state === "busy").length,
        idle: slots.filter((s) => s.state === "idle").length,
        queued: queue.length,
        started,
        peakWorkers,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const item of queue.splice(0)) settle(item).reject(closedError());
      // A parse cut short by the shutdown says nothing about its file: its caller gets the closed
      // error, never a refusal.
      const ending = slots.splice(0);
      for (const slot of ending) slot.stop?.(closedError());
      await Promise.all(ending.map((s) => s.worker.terminate()));
    },
  };
}

function closedError(): PdfGuardError {
  return new PdfGuardError({
    status: 503,
    code: "pdf_engine_closed",
    detail: "The PDF engine was shut down; the attachments were not judged.",
  });
}

function isReady(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "ready";
}

function isAnswer(message: unknown): message is { id: number; outcome: PdfParseOutcome | PdfPoolFailure } {
  return (
    typeof message === "object" && message !== null && typeof (message as { id?: unknown }).id === "number"
  );
}
