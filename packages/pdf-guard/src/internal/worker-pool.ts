import { Worker } from "node:worker_threads";
import { PdfGuardError } from "../errors.js";
import type { PdfParseOutcome } from "./parse-pdf.mjs";

/** Why a parse ended without an answer from pdf.js. */
export type PdfPoolFailure = { ok: false; reason: "timeout" | "resource_limit"; detail: string };

/** Settings of a {@link PdfWorkerPool}; see `AttachmentLimits` for the public meaning. */
export interface PdfWorkerPoolOptions {
  size: number;
  timeoutMs: number;
  maxMemoryMb: number;
  maxTextChars: number;
}

/** A few worker threads that parse PDFs one at a time each. */
export interface PdfWorkerPool {
  parse(bytes: Uint8Array): Promise<PdfParseOutcome | PdfPoolFailure>;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
}

interface Job {
  bytes: Uint8Array;
  resolve: (outcome: PdfParseOutcome | PdfPoolFailure) => void;
  reject: (error: unknown) => void;
}

const WORKER_URL = new URL("./pdf-worker.mjs", import.meta.url);

/**
 * Starts worker threads lazily (at most `size`), hands each one PDF at a time, and replaces a
 * worker that ran out of time or memory. Bounding a hostile file this way keeps the main thread's
 * heap and event loop safe: `resourceLimits` caps the worker's V8 heap, `terminate()` ends a parse
 * that loops, and the worker's own watchdog ends it when its ArrayBuffers grow past the budget
 * (decision pdf-guard-hostile-pdf-bounds).
 */
export function createPdfWorkerPool(options: PdfWorkerPoolOptions): PdfWorkerPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const worker = new Worker(WORKER_URL, {
      // The worker is plain JavaScript: it needs none of the parent's loader flags (a TypeScript
      // loader in development would otherwise transform pdf.js on every start).
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.floor(options.maxMemoryMb / 8))),
        stackSizeMb: 4,
      },
    });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (isReady(message)) {
          worker.off("error", onError);
          worker.off("message", onMessage);
          resolve();
        }
      };
      const onError = (error: unknown) => {
        worker.off("message", onMessage);
        reject(
          new PdfGuardError({
            status: 500,
            code: "pdf_engine_unavailable",
            detail: "The PDF engine could not be started.",
            cause: error,
          }),
        );
      };
      worker.on("message", onMessage);
      worker.once("error", onError);
    });
    // A rejected `ready` that nobody awaits yet must not crash the process.
    ready.catch(() => undefined);
    const slot: Slot = { worker, ready, busy: false };
    slots.push(slot);
    return slot;
  }

  function retire(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
    void slot.worker.terminate();
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      let slot = slots.find((s) => !s.busy);
      if (!slot && slots.length < options.size) slot = spawn();
      if (!slot) return;
      const job = queue.shift() as Job;
      void run(slot, job);
    }
  }

  async function run(slot: Slot, job: Job): Promise<void> {
    slot.busy = true;
    try {
      await slot.ready;
    } catch (error) {
      retire(slot);
      job.reject(error);
      pump();
      return;
    }
    const id = nextId++;
    const outcome = await new Promise<PdfParseOutcome | PdfPoolFailure | { crashed: unknown }>((resolve) => {
      const timer = setTimeout(() => {
        cleanup();
        resolve({
          ok: false,
          reason: "timeout",
          detail: `parsing took longer than ${options.timeoutMs} ms`,
        });
      }, options.timeoutMs);
      const onMessage = (message: unknown) => {
        if (isAnswer(message) && message.id === id) {
          cleanup();
          resolve(message.outcome);
        }
      };
      const onError = (error: unknown) => {
        cleanup();
        // Node reports a heap over `resourceLimits` as ERR_WORKER_OUT_OF_MEMORY.
        if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
          resolve({ ok: false, reason: "resource_limit", detail: "parsing needed more memory than allowed" });
        } else {
          resolve({ crashed: error });
        }
      };
      const onExit = () => {
        cleanup();
        resolve({ ok: false, reason: "resource_limit", detail: "the parser stopped unexpectedly" });
      };
      function cleanup() {
        clearTimeout(timer);
        slot.worker.off("message", onMessage);
        slot.worker.off("error", onError);
        slot.worker.off("exit", onExit);
      }
      slot.worker.on("message", onMessage);
      slot.worker.once("error", onError);
      slot.worker.once("exit", onExit);
      // A copy goes to the worker; the caller keeps its bytes.
      slot.worker.postMessage({
        id,
        bytes: job.bytes,
        maxTextChars: options.maxTextChars,
        maxMemoryBytes: options.maxMemoryMb * 1024 * 1024,
      });
    });
    if ("crashed" in outcome) {
      retire(slot);
      const detail = outcome.crashed instanceof Error ? outcome.crashed.message : String(outcome.crashed);
      job.resolve({ ok: false, reason: "damaged", detail });
    } else if (!outcome.ok && (outcome.reason === "timeout" || outcome.reason === "resource_limit")) {
      retire(slot);
      job.resolve(outcome);
    } else {
      slot.busy = false;
      job.resolve(outcome);
    }
    pump();
  }

  return {
    parse(bytes) {
      if (closed) return Promise.reject(new Error("pdf worker pool is closed"));
      return new Promise((resolve, reject) => {
        queue.push({ bytes, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("pdf worker pool is closed"));
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

function isReady(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "ready";
}

function isAnswer(message: unknown): message is { id: number; outcome: PdfParseOutcome | PdfPoolFailure } {
  return (
    typeof message === "object" && message !== null && typeof (message as { id?: unknown }).id === "number"
  );
}
