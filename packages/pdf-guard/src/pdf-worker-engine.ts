import { availableParallelism } from "node:os";
import { createPdfWorkerPool, type PdfWorkerPoolStats } from "./internal/worker-pool.js";
import type { PdfEngine, PdfParseLimits } from "./pdf-engine.js";

/**
 * Settings of a {@link PdfWorkerEngine}. Every field is optional; the defaults suit a server that
 * checks orders from many clients at once.
 *
 * @example
 * const options: PdfEngineOptions = { workers: 4, maxQueueWaitMs: 20_000 };
 */
export interface PdfEngineOptions {
  /** Worker threads, each parsing one PDF at a time. Default `os.availableParallelism()`. */
  workers?: number;
  /**
   * V8 heap cap of each worker in MiB (Node `resourceLimits`). Default 256. The process needs at
   * most about `workers × (heapLimitMb + parseMemoryMb)` for PDF parsing.
   */
  heapLimitMb?: number;
  /**
   * Longest a file may wait for a free worker, in ms. Default 30 000. Beyond it the check fails with
   * a 503 `pdf_engine_busy` {@link PdfGuardError}: the server is busy, the file was not judged.
   */
  maxQueueWaitMs?: number;
  /** Longest a worker may take to load pdf.js, in ms. Default 30 000. */
  startupTimeoutMs?: number;
}

/**
 * Counters of a {@link PdfWorkerEngine}.
 *
 * @example
 * const { workers, busy, queued } = getPdfEngine().stats();
 */
export type PdfEngineStats = PdfWorkerPoolStats;

/**
 * The Node {@link PdfEngine}: a bounded set of worker threads that parse PDFs for every order in
 * the process, fed from one queue, each parse capped in heap, ArrayBuffer memory and time
 * (decisions pdf-guard-pdf-engine, pdf-guard-hostile-pdf-bounds). Pass it as `engine` to
 * `checkAttachments` and `inspectPdf`, or as `pdfEngine` to `createOrderEngine`.
 *
 * @example
 * const engine = createPdfEngine({ workers: 2 });
 * const result = await checkAttachments(list, { engine });
 * await engine.close();
 */
export interface PdfWorkerEngine extends PdfEngine {
  /** The settings in force, defaults filled in. */
  readonly options: Readonly<Required<PdfEngineOptions>>;
  /** Workers alive, busy and started, and files waiting. */
  stats(): PdfEngineStats;
  /**
   * Ends every worker. Files still waiting, and parses still running, fail with a 503
   * `pdf_engine_closed` error (never a refusal of the file); later checks on this engine too.
   */
  close(): Promise<void>;
}

/**
 * The defaults of {@link PdfEngineOptions}, with `workers` read from this machine.
 *
 * @example
 * resolvePdfEngineOptions({ workers: 3 }).maxQueueWaitMs; // 30000
 */
export function resolvePdfEngineOptions(options: PdfEngineOptions = {}): Required<PdfEngineOptions> {
  const resolved: Required<PdfEngineOptions> = {
    workers: options.workers ?? Math.max(1, availableParallelism()),
    heapLimitMb: options.heapLimitMb ?? 256,
    maxQueueWaitMs: options.maxQueueWaitMs ?? 30_000,
    startupTimeoutMs: options.startupTimeoutMs ?? 30_000,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`PDF engine option ${key} must be a positive integer, got ${String(value)}`);
    }
  }
  return resolved;
}

/**
 * Makes a separate engine, for a host that wants its own bounds or a test. Most hosts use the
 * process-wide one ({@link getPdfEngine}, configured with {@link configurePdfEngine}). Workers start
 * on the first parse, not here.
 *
 * @example
 * const engine = createPdfEngine({ workers: 1, maxQueueWaitMs: 5_000 });
 * try {
 *   await decodeAttachments(list, { engine });
 * } finally {
 *   await engine.close();
 * }
 */
export function createPdfEngine(options: PdfEngineOptions = {}): PdfWorkerEngine {
  const resolved = resolvePdfEngineOptions(options);
  const pool = createPdfWorkerPool({
    size: resolved.workers,
    heapLimitMb: resolved.heapLimitMb,
    startupTimeoutMs: resolved.startupTimeoutMs,
    maxQueueWaitMs: resolved.maxQueueWaitMs,
  });
  return {
    options: Object.freeze(resolved),
    parse: (bytes, limits, signal) =>
      pool.parse(bytes, {
        timeoutMs: limits.parseTimeoutMs,
        maxTextChars: limits.maxTextChars,
        maxMemoryBytes: limits.parseMemoryMb * 1024 * 1024,
        ocrBudgetMs: ocrBudgetWithin(limits),
        signal,
      }),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

// What the OCR budget leaves of the parse time-out, at least: a page's rendering holds the worker's
// thread and can overrun the budget by a second or two on a busy machine, then the answer is sent.
const OCR_PARSE_MARGIN_MS = 2_500;

/**
 * The OCR budget of one parse, ended before the parse's time-out so a slow scan is read in part
 * rather than refused as `pdf_timeout` (decision pdf-guard-ocr).
 */
function ocrBudgetWithin(limits: PdfParseLimits): number {
  const budget = limits.ocrBudgetMs ?? 0;
  return Math.max(0, Math.min(budget, limits.parseTimeoutMs - OCR_PARSE_MARGIN_MS));
}

let current: PdfWorkerEngine | null = null;
let sharedOptions: PdfEngineOptions = {};

function currentEngine(): PdfWorkerEngine {
  current ??= createPdfEngine(sharedOptions);
  return current;
}

// One stable object stands for the process-wide engine. A host hands it to createOrderEngine once
// at start-up; configurePdfEngine or closePdfEngine later replace the pool behind it, so that
// object never turns into a closed engine.
const shared: PdfWorkerEngine = {
  get options() {
    return currentEngine().options;
  },
  parse: (bytes, limits, signal) => currentEngine().parse(bytes, limits, signal),
  stats: () => currentEngine().stats(),
  close: () => closePdfEngine(),
};

/**
 * The process-wide engine, always the same object. Its workers start on the first parse, with the
 * options of the last {@link configurePdfEngine} call; after {@link closePdfEngine} (or its own
 * `close()`) the next parse starts new ones. Idle workers never keep the process alive.
 *
 * @example
 * import { getPdfEngine } from "@incasso/pdf-guard/node";
 * const orders = createOrderEngine({ store, caseSystem, pdfEngine: getPdfEngine() });
 */
export function getPdfEngine(): PdfWorkerEngine {
  return shared;
}

/**
 * Sets the options of the process-wide engine; call it at start-up, before the first check. When
 * its workers are already running they are closed (their waiting and running files fail with
 * `pdf_engine_closed`) and the next check starts new ones with these options.
 *
 * @example
 * configurePdfEngine({ workers: Number(process.env.PDF_WORKERS ?? 2), maxQueueWaitMs: 20_000 });
 */
export async function configurePdfEngine(options: PdfEngineOptions): Promise<void> {
  resolvePdfEngineOptions(options);
  sharedOptions = { ...options };
  await closePdfEngine();
}

/**
 * Closes the workers of the process-wide engine, for a graceful shutdown; a later check starts new
 * ones. Not needed merely to let the process exit, as idle workers are unref'd.
 *
 * @example
 * process.once("SIGTERM", () => void closePdfEngine());
 */
export async function closePdfEngine(): Promise<void> {
  const engine = current;
  current = null;
  await engine?.close();
}
