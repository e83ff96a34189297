import type { Worker } from "node:worker_threads";
import { Piscina } from "piscina";
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
  /** The worker's job module and its data; tests pass a stand-in. */
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

/** The task the job module (pdf-worker.mjs) receives. */
interface ParseTask {
  id: number;
  bytes: Uint8Array;
  maxTextChars: number;
  maxMemoryBytes: number;
  ocrBudgetMs: number;
}

/** What the pool knows of one of piscina's threads. */
interface ThreadState {
  /** The job module (and pdf.js) loaded. */
  ready: boolean;
  /** Ends the thread when it is not ready in time. */
  deadline: NodeJS.Timeout | null;
  /** Why the thread is being ended before it was ready. */
  failure: Error | null;
}

/** A file from `parse` until its caller has an answer. */
interface Job {
  id: number;
  bytes: Uint8Array;
  job: PdfParseJob;
  /** Cancels the task in piscina: off its queue, or, once running, with its worker. */
  cancel: AbortController;
  /** Handed to piscina (which starts a worker for it when none is free). */
  submitted: boolean;
  /** A worker has received the file: the time limit runs, the queue limits no longer apply. */
  running: boolean;
  resolve: (outcome: PdfParseOutcome | PdfPoolFailure) => void;
  reject: (error: unknown) => void;
  timers: NodeJS.Timeout[];
  onAbort: (() => void) | null;
}

const WORKER_URL = new URL("./pdf-worker.mjs", import.meta.url);

/**
 * The engine behind `PdfEngine`, on piscina: piscina starts the worker threads (at most `size`,
 * each with `resourceLimits`), waits for each to load pdf.js, hands it one file at a time, and
 * ends a worker whose task is cancelled. So the number of parses and their memory are bounded per
 * process however many orders arrive at once (decisions pdf-guard-pdf-engine, pdf-guard-worker-pool).
 *
 * What piscina leaves to this module:
 * - the time limit starts when a worker receives the file (its job posts `started`), not when the
 *   file was queued; a parse that takes too long is cancelled, which ends its worker, and the next
 *   file starts a fresh one (decision pdf-guard-hostile-pdf-bounds);
 * - a file that found no free worker within `maxQueueWaitMs` is rejected with a 503
 *   `pdf_engine_busy` error, which says the server is busy and says nothing about the file;
 * - a worker that does not become ready within `startupTimeoutMs` is ended; when no worker is
 *   alive at all, the waiting files are rejected with a 500 `pdf_engine_unavailable`;
 * - a worker's death is mapped to an outcome: its watchdog's own answer, or `resource_limit`.
 *
 * Files are handed to piscina only while fewer than `size` are in its hands: piscina starts a
 * worker for a file it cannot place, but with no minimum of threads it replaces a worker that died
 * only when the next file arrives, so files queued in it behind a cancelled one would wait for
 * nothing. Idle workers are unref'd by piscina, so they never keep the process alive.
 */
export function createPdfWorkerPool(options: PdfWorkerPoolOptions): PdfWorkerPool {
  const filename = (options.workerUrl ?? WORKER_URL).href;
  const jobs = new Map<number, Job>();
  const waiting: Job[] = [];
  let piscina: Piscina | null = null;
  let inPiscina = 0;
  let nextId = 0;
  let closed = false;
  let started = 0;
  let peakWorkers = 0;
  // Threads piscina started and has not dropped: whether each loaded the job module, and its
  // start-up deadline until it did.
  const threads = new Map<Worker, ThreadState>();

  function pool(): Piscina {
    if (piscina) return piscina;
    const p = new Piscina({
      filename,
      workerData: options.workerData,
      // Threads start for files, not ahead of them, and stay once pdf.js is loaded.
      minThreads: 0,
      maxThreads: options.size,
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      // An idle thread waits on its port, not in Atomics.wait: a thread blocked there runs none of
      // V8's idle-time garbage collection, so what the last parse left (decoded streams are
      // ArrayBuffers of megabytes) would stay resident until the next file.
      atomics: "disabled",
      recordTiming: false,
      // The job module is plain JavaScript: it needs none of the parent's loader flags (a TypeScript
      // loader in development would otherwise transform pdf.js on every start).
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapLimitMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.floor(options.heapLimitMb / 8))),
        stackSizeMb: 4,
      },
    });
    // Piscina says "workerCreate" once a thread has loaded the job module (pdf.js included).
    p.on("workerCreate", (worker: { id: number }) => {
      watchThreads();
      for (const [thread, state] of threads) {
        if (thread.threadId !== worker.id) continue;
        state.ready = true;
        clearTimeout(state.deadline ?? undefined);
        state.deadline = null;
      }
    });
    // Piscina drops the thread from its list just after this event.
    p.on("workerDestroy", () => queueMicrotask(watchThreads));
    p.on("message", onWorkerMessage);
    // A worker that fails while loading its module (a broken installation): piscina reports it here.
    p.on("error", (error: unknown) => startFailed(error));
    piscina = p;
    return p;
  }

  // Brings `threads` up to date with piscina's list: a new thread is counted and gets its start-up
  // deadline; a thread that ended before it was ready means the engine may not start at all.
  function watchThreads(): void {
    const alive = new Set(piscina?.threads ?? []);
    peakWorkers = Math.max(peakWorkers, alive.size);
    for (const [thread, state] of threads) {
      if (alive.has(thread)) continue;
      threads.delete(thread);
      clearTimeout(state.deadline ?? undefined);
      if (!state.ready) startFailed(state.failure ?? new Error("the PDF worker stopped while starting"));
    }
    for (const thread of alive) {
      if (threads.has(thread)) continue;
      started++;
      const state: ThreadState = { ready: false, deadline: null, failure: null };
      state.deadline = setTimeout(() => {
        state.deadline = null;
        state.failure = new Error(`the PDF worker did not start within ${options.startupTimeoutMs} ms`);
        void thread.terminate();
      }, options.startupTimeoutMs);
      threads.set(thread, state);
    }
  }

  // A worker that cannot start is most likely a broken installation, not a busy server: when no
  // worker is left to take the waiting files, they fail now instead of at the queue limit.
  function startFailed(cause: unknown): void {
    if (closed || (piscina?.threads.length ?? 0) > 0) return;
    const pending = [...jobs.values()].filter((j) => !j.running);
    if (pending.length === 0) return;
    const error = new PdfGuardError({
      status: 500,
      code: "pdf_engine_unavailable",
      detail: "The PDF engine could not be started.",
      cause,
    });
    for (const job of pending) fail(job, error);
  }

  // Ends a job for its caller: off the queues, its timers and listeners removed, its task cancelled.
  function settle(job: Job): boolean {
    if (!jobs.delete(job.id)) return false;
    for (const timer of job.timers) clearTimeout(timer);
    if (job.onAbort) job.job.signal?.removeEventListener("abort", job.onAbort);
    const at = waiting.indexOf(job);
    if (at >= 0) waiting.splice(at, 1);
    return true;
  }

  function fail(job: Job, error: unknown): void {
    if (!settle(job)) return;
    if (job.submitted) job.cancel.abort(error);
    job.reject(error);
  }

  function answer(job: Job, outcome: PdfParseOutcome | PdfPoolFailure): void {
    if (!settle(job)) return;
    // The caller goes on in an immediate, not inside this message's callback. Node reads up to
    // 1,000 messages of one port before it returns to the event loop; a caller whose follow-up
    // work is all promises (an embedded database) and outlasts a parse would otherwise always
    // find the next answer waiting, and keep timers and the other workers' answers out until the
    // load ends.
    setImmediate(() => job.resolve(outcome));
  }

  function onWorkerMessage(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { id, started: began, outcome } = message as { id?: unknown; started?: unknown; outcome?: unknown };
    const job = typeof id === "number" ? jobs.get(id) : undefined;
    if (!job) return;
    // The watchdog answers resource_limit and then ends its thread; the next file starts another.
    if (outcome) answer(job, outcome as PdfPoolFailure);
    else if (began === true && !job.running) run(job);
  }

  // A worker has the file: the queue limits end, the time limit starts.
  function run(job: Job): void {
    job.running = true;
    for (const timer of job.timers) clearTimeout(timer);
    job.timers = [
      setTimeout(() => {
        // A busy main thread may not have read an answer the worker posted in time: in one turn of
        // the event loop, timers run before the ports are read. The verdict waits for that read (an
        // immediate runs after it), so a file parsed in time is never refused as too slow.
        setImmediate(() => {
          if (!jobs.has(job.id)) return;
          // Cancelling a running task ends its worker (piscina), so a hung parse stops for good.
          job.cancel.abort(new Error("parse time limit"));
          answer(job, {
            ok: false,
            reason: "timeout",
            detail: `parsing took longer than ${job.job.timeoutMs} ms`,
          });
        });
      }, job.job.timeoutMs),
    ];
  }

  function submit(job: Job): void {
    const p = pool();
    job.submitted = true;
    inPiscina++;
    const task: ParseTask = {
      id: job.id,
      // The caller keeps its bytes (they are stored after the check), so they are not moved with a
      // transferList: a copy goes to the worker, except of bytes in shared memory (large files are
      // decoded into a SharedArrayBuffer, base64.ts), which the worker reads where they are, with no
      // copy made on the thread that answers every request.
      bytes: job.bytes,
      maxTextChars: job.job.maxTextChars,
      maxMemoryBytes: job.job.maxMemoryBytes,
      ocrBudgetMs: job.job.ocrBudgetMs ?? 0,
    };
    p.run(task, { signal: job.cancel.signal })
      .then(
        (outcome: PdfParseOutcome) => answer(job, outcome),
        (error: unknown) => answer(job, failureOf(error)),
      )
      .finally(() => {
        // Piscina has let go of the task (and of a worker it ended): room for the next file.
        inPiscina--;
        watchThreads();
        pump();
      });
    watchThreads();
  }

  function pump(): void {
    while (!closed && waiting.length > 0 && inPiscina < options.size) submit(waiting.shift() as Job);
  }

  return {
    parse(bytes, job) {
      if (closed) return Promise.reject(closedError());
      if (job.signal?.aborted) return Promise.reject(job.signal.reason);
      return new Promise((resolve, reject) => {
        const item: Job = {
          id: nextId++,
          bytes,
          job,
          cancel: new AbortController(),
          submitted: false,
          running: false,
          resolve,
          reject,
          timers: [],
          onAbort: null,
        };
        item.timers.push(
          setTimeout(() => {
            // As for the time limit: a worker's `started` already posted is read first.
            setImmediate(() => {
              if (item.running) return;
              fail(
                item,
                new PdfGuardError({
                  status: 503,
                  code: "pdf_engine_busy",
                  detail: `No PDF worker became free within ${options.maxQueueWaitMs} ms; the attachments were not judged. Try again later.`,
                  retryAfterSeconds: Math.max(1, Math.ceil(options.maxQueueWaitMs / 1000)),
                }),
              );
            });
          }, options.maxQueueWaitMs),
        );
        if (job.signal) {
          const signal = job.signal;
          item.onAbort = () => {
            if (!item.running) fail(item, signal.reason);
          };
          signal.addEventListener("abort", item.onAbort, { once: true });
        }
        jobs.set(item.id, item);
        waiting.push(item);
        pump();
      });
    },
    stats() {
      const running = [...jobs.values()].filter((j) => j.running).length;
      return {
        workers: piscina?.threads.length ?? 0,
        busy: running,
        idle: Math.max(0, [...threads.values()].filter((t) => t.ready).length - running),
        queued: jobs.size - running,
        started,
        peakWorkers,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      // A parse cut short by the shutdown says nothing about its file: its caller gets the closed
      // error, never a refusal.
      for (const job of [...jobs.values()]) {
        if (settle(job)) job.reject(closedError());
      }
      for (const state of threads.values()) clearTimeout(state.deadline ?? undefined);
      threads.clear();
      await piscina?.destroy();
    },
  };
}

/** What a task that piscina ended without an answer of pdf.js means for the file. */
function failureOf(error: unknown): PdfParseOutcome | PdfPoolFailure {
  // Node reports a heap over `resourceLimits` as ERR_WORKER_OUT_OF_MEMORY.
  if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
    return { ok: false, reason: "resource_limit", detail: "parsing needed more memory than allowed" };
  }
  // Piscina: "worker exited with code: N" when the thread ended during the parse.
  if (error instanceof Error && error.message.startsWith("worker exited")) {
    return { ok: false, reason: "resource_limit", detail: "the parser stopped unexpectedly" };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, reason: "damaged", detail };
}

function closedError(): PdfGuardError {
  return new PdfGuardError({
    status: 503,
    code: "pdf_engine_closed",
    detail: "The PDF engine was shut down; the attachments were not judged.",
  });
}
