import { availableParallelism } from "node:os";
import { createPdfWorkerPool, type PdfWorkerPool, type PdfWorkerPoolStats } from "./internal/worker-pool.js";

/**
 * Settings of a {@link PdfEngine}. Every field is optional; the defaults suit a server that checks
 * orders from many clients at once.
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
 * Counters of a {@link PdfEngine}.
 *
 * @example
 * const { workers, busy, queued } = getPdfEngine().stats();
 */
export type PdfEngineStats = PdfWorkerPoolStats;

/**
 * A bounded set of worker threads that parse PDFs for every order in the process, fed from one
 * queue. {@link checkAttachments} and {@link inspectPdf} use the process-wide one from
 * {@link getPdfEngine} unless given another.
 *
 * @example
 * const engine = createPdfEngine({ workers: 2 });
 * const result = await checkAttachments(list, { engine });
 * await engine.close();
 */
export interface PdfEngine {
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

// The pool behind each engine, kept out of the public shape.
const pools = new WeakMap<PdfEngine, PdfWorkerPool>();

/** The worker pool of an engine made by {@link createPdfEngine}; for this package's own use. */
export function poolOf(engine: PdfEngine): PdfWorkerPool {
  const pool = pools.get(engine);
  if (!pool) throw new TypeError("not a PdfEngine made by createPdfEngine");
  return pool;
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
 * process-wide one ({@link getPdfEngine}, configured with {@link configurePdfEngine}).
 *
 * @example
 * const engine = createPdfEngine({ workers: 1, maxQueueWaitMs: 5_000 });
 * try {
 *   await decodeAttachments(list, { engine });
 * } finally {
 *   await engine.close();
 * }
 */
export function createPdfEngine(options: PdfEngineOptions = {}): PdfEngine {
  const resolved = resolvePdfEngineOptions(options);
  const pool = createPdfWorkerPool({
    size: resolved.workers,
    heapLimitMb: resolved.heapLimitMb,
    startupTimeoutMs: resolved.startupTimeoutMs,
    maxQueueWaitMs: resolved.maxQueueWaitMs,
  });
  const engine: PdfEngine = {
    options: Object.freeze(resolved),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
  pools.set(engine, pool);
  return engine;
}

let shared: PdfEngine | null = null;
let sharedOptions: PdfEngineOptions = {};

/**
 * The process-wide engine, made on first use with the options of the last
 * {@link configurePdfEngine} call. Its idle workers never keep the process alive.
 *
 * @example
 * console.log(getPdfEngine().stats().workers);
 */
export function getPdfEngine(): PdfEngine {
  shared ??= createPdfEngine(sharedOptions);
  return shared;
}

/**
 * Sets the options of the process-wide engine; call it at start-up, before the first check. When
 * the engine is already running it is closed (its waiting and running files fail with
 * `pdf_engine_closed`) and the next check starts a new one with these options.
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
 * Closes the process-wide engine, for a graceful shutdown; a later check starts a new one. Not
 * needed merely to let the process exit, as idle workers are unref'd.
 *
 * @example
 * process.once("SIGTERM", () => void closePdfEngine());
 */
export async function closePdfEngine(): Promise<void> {
  const engine = shared;
  shared = null;
  await engine?.close();
}
