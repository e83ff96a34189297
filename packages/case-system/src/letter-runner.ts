import { randomBytes } from "node:crypto";
import type { Logger } from "@incasso/core";
import { checkRetrySchedule, createLeaseLoop, nextAttemptAt, type SqlStore } from "@incasso/store-sql";
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "./built-in-case-system.js";
import { isCaseSystemError } from "./errors.js";
import {
  claimLetterJobs,
  failLetterJob,
  type LetterJobRow,
  recordMissingLetterJobs,
} from "./internal/letter-job-queries.js";

/**
 * Seconds to wait after each failed attempt of a letter job before the next: 30 seconds,
 * 5 minutes, 30 minutes, 2 hours, 12 hours; six attempts in all, so a database that is away for a
 * night still gets the letter, and then the job is failed and shown to the operator
 * (decision case-system-wik-letter-jobs).
 *
 * @example
 * DEFAULT_LETTER_RETRY_SECONDS.length + 1; // 6 attempts
 */
export const DEFAULT_LETTER_RETRY_SECONDS: readonly number[] = [30, 300, 1800, 7200, 43_200];

/**
 * Where a letter runner reports failed attempts (warn) and jobs that failed for good (error).
 *
 * @example
 * const logger: LetterRunnerLogger = { warn: console.warn, error: console.error };
 */
export type LetterRunnerLogger = Pick<Logger, "warn" | "error">;

/**
 * Options of {@link createLetterRunner}. Only `store` is required.
 *
 * @example
 * const options: LetterRunnerOptions = { store, concurrency: 2 };
 */
export interface LetterRunnerOptions {
  /** The store whose database holds the case tables and the letter jobs (migration 31). */
  store: Pick<SqlStore, "database">;
  /**
   * The built-in case system that writes the letters, with its webhook events and listener;
   * default `createBuiltInCaseSystem({ store })`. Pass the host's own when it has an `onChange`.
   */
  caseSystem?: BuiltInCaseSystem;
  /** This runner's id in leases; default `ltr_` and 12 random hex digits. */
  owner?: string;
  /** The clock; tests move it to run out leases and waits. */
  now?: () => Date;
  /** Waits after each failed attempt, in seconds; default {@link DEFAULT_LETTER_RETRY_SECONDS}. */
  retrySeconds?: readonly number[];
  /** How long a claim holds before another runner may take the job over; default 60 s. */
  leaseSeconds?: number;
  /** Letters in the making at once; default 4 (rendering is CPU work on this thread). */
  concurrency?: number;
  /** How often to look for due jobs when idle; default 1000 ms. */
  pollIntervalMs?: number;
  /**
   * How far back, in hours, to look for stored pre-incasso orders without a job (placed before
   * jobs were recorded with the placement, or whose job was deleted); default 24, 0 turns the look
   * off.
   */
  catchUpHours?: number;
  /** How often that look runs while the runner runs (it runs at start too); default 15 minutes. */
  catchUpIntervalMs?: number;
  /** Default: warnings and errors to the console. */
  logger?: LetterRunnerLogger;
  /** Called after every attempt has been recorded (metrics, tests). */
  onJob?: (result: LetterJobResult) => void;
}

/**
 * One attempt at a letter job, as the runner made and recorded it.
 *
 * @example
 * const r: LetterJobResult = { orderId: "ord_0123456789abcdef", caseNumber: "2026-000001", attempt: 1,
 *   outcome: "made", letterId: "let_0123456789abcdef", error: null, nextAttemptAt: null, recorded: true };
 */
export interface LetterJobResult {
  orderId: string;
  caseNumber: string;
  attempt: number;
  /**
   * `made`: the letter was made and recorded as sent; `existed`: the order had its letter already
   * (made by another runner or a handler), the job is gone; `retry`: failed, due again at
   * `nextAttemptAt`; `failed`: failed for good, shown by `incasso cases letter-jobs --failed`.
   */
  outcome: "made" | "existed" | "retry" | "failed";
  letterId: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
  /** False when the lease had been taken over before a failure could be recorded. */
  recorded: boolean;
}

/**
 * A running (or startable) letter runner.
 *
 * @example
 * const runner = createLetterRunner({ store });
 * runner.start();
 * process.once("SIGTERM", () => void runner.stop());
 */
export interface LetterRunner {
  readonly owner: string;
  /**
   * Whether it polls: true from `start()` until `stop()` is called (readiness reports it, so an
   * instance whose worker stopped is taken out of rotation).
   */
  readonly running: boolean;
  /** Starts polling in the background. */
  start(): void;
  /**
   * Stops polling and waits for the letters in the making. With `abandon`, records nothing more
   * for them, as a crash would: their leases run out and another runner takes the jobs over.
   */
  stop(options?: { abandon?: boolean }): Promise<void>;
  /** Claims up to `concurrency` due jobs once and works them; the attempts made. */
  runOnce(): Promise<LetterJobResult[]>;
  /** Records the jobs of recent stored pre-incasso orders that have none; how many. */
  catchUp(): Promise<number>;
  /** Looks for due jobs at once instead of at the next poll. */
  wake(): void;
}

const consoleLogger: LetterRunnerLogger = {
  warn: (message, fields) => console.warn(message, fields ?? ""),
  error: (message, fields) => console.error(message, fields ?? ""),
};

/**
 * The letter runner: makes the statutory 14-day letters of pre-incasso orders from their durable
 * jobs (decision case-system-wik-letter-jobs). It claims due jobs (`FOR UPDATE SKIP LOCKED` plus a
 * lease, so any number of runners in any number of processes share the work), makes each letter
 * with the built-in case system (stored on the case, recorded as sent, `correspondence.sent` in
 * the outbox and the job deleted, in one transaction; made once per order by the unique order id
 * on `case_letters`), and records a failed attempt with the next due time, or the job as failed
 * after the last one. A job whose runner died is taken over when its lease runs out.
 * `incasso serve` runs one in the server, `incasso worker` on its own; a host runs one next to
 * its API.
 *
 * @example
 * const store = await openCaseSystemStore({ databaseUrl: process.env.DATABASE_URL });
 * const runner = createLetterRunner({ store });
 * runner.start();
 */
export function createLetterRunner(options: LetterRunnerOptions): LetterRunner {
  const db = options.store.database;
  const cases = options.caseSystem ?? createBuiltInCaseSystem({ store: options.store });
  const owner = options.owner ?? `ltr_${randomBytes(6).toString("hex")}`;
  const now = options.now ?? (() => new Date());
  // Finite and non-negative; unlike webhook delivery, any number of waits in any order.
  const retrySeconds = checkRetrySchedule(options.retrySeconds ?? DEFAULT_LETTER_RETRY_SECONDS, {
    webhookRules: false,
  });
  const maxAttempts = retrySeconds.length + 1;
  const leaseSeconds = options.leaseSeconds ?? 60;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const catchUpHours = options.catchUpHours ?? 24;
  const catchUpIntervalMs = options.catchUpIntervalMs ?? 15 * 60_000;
  const logger = options.logger ?? consoleLogger;
  let abandoned = false;
  let lastCatchUp = Number.NEGATIVE_INFINITY;

  async function work(job: LetterJobRow): Promise<LetterJobResult | undefined> {
    const base = { orderId: job.orderId, caseNumber: job.caseNumber, attempt: job.attempts };
    let error: unknown;
    try {
      const { letterId, made } = await cases.makeOrderLetter({
        caseNumber: job.caseNumber,
        orderId: job.orderId,
        at: now(),
      });
      const result: LetterJobResult = {
        ...base,
        outcome: made ? "made" : "existed",
        letterId,
        error: null,
        nextAttemptAt: null,
        recorded: true,
      };
      options.onJob?.(result);
      return result;
    } catch (caught) {
      error = caught;
    }
    // A stop with `abandon` behaves like a crash: nothing is recorded, the lease runs out.
    if (abandoned) return undefined;
    const message = error instanceof Error ? error.message : String(error);
    const failedAt = now();
    // A refusal of the case system (no invoices, paid in full, no such order on the case) is the
    // same at every attempt: failed at once, for the operator. Anything else (the database, the
    // renderer) may pass: tried again later.
    const next = isCaseSystemError(error) ? null : nextAttemptAt(job.attempts, failedAt, retrySeconds);
    const text = isCaseSystemError(error) ? `${error.code}: ${message}` : message;
    const recorded = await failLetterJob(db, {
      orderId: job.orderId,
      owner,
      attempt: job.attempts,
      now: failedAt,
      error: text,
      nextAttemptAt: next,
    });
    const result: LetterJobResult = {
      ...base,
      outcome: next === null ? "failed" : "retry",
      letterId: null,
      error: text,
      nextAttemptAt: next,
      recorded,
    };
    const fields = {
      orderId: job.orderId,
      caseNumber: job.caseNumber,
      attempt: job.attempts,
      error: text,
      nextAttemptAt: next?.toISOString() ?? null,
    };
    if (isCaseSystemError(error) && error.code === "letter_details_missing") {
      // Not a fault to chase but a step the operator has still to take: setting the IBAN makes
      // the job due again on its own (saveLetterDetails), so a warning says what to do.
      logger.warn(
        "14-day letter waits for the organisation's letter details; it is made once they are set with incasso letter-details set --organisation NAME --iban IBAN",
        fields,
      );
    } else if (next === null) {
      logger.error(
        "14-day letter failed for good; see incasso cases letter-jobs --failed, then incasso cases retry-letter",
        fields,
      );
    } else logger.warn("14-day letter attempt failed; it is tried again", fields);
    options.onJob?.(result);
    return result;
  }

  async function catchUp(): Promise<number> {
    if (catchUpHours <= 0) return 0;
    const at = now();
    lastCatchUp = at.getTime();
    return recordMissingLetterJobs(db, { since: new Date(at.getTime() - catchUpHours * 3_600_000), now: at });
  }

  const loop = createLeaseLoop<LetterJobRow, LetterJobResult>({
    claim: (limit) => claimLetterJobs(db, { owner, now: now(), leaseSeconds, limit, maxAttempts }),
    work,
    concurrency,
    // Rendering is CPU work: a free slot is filled at once.
    refillAt: concurrency - 1,
    pollIntervalMs,
    async beforeClaim() {
      if (catchUpHours > 0 && now().getTime() - lastCatchUp >= catchUpIntervalMs) {
        try {
          const found = await catchUp();
          if (found > 0) logger.warn("recorded letter jobs of orders that had none", { count: found });
        } catch (error) {
          logger.error("looking for orders without a letter job failed", { error: String(error) });
        }
      }
    },
    onClaimError: (error) => logger.error("letter job claim failed", { error: String(error) }),
    onWorkError: (job, error) =>
      logger.error("letter job could not be recorded", { orderId: job.orderId, error: String(error) }),
  });

  return {
    owner,
    get running() {
      return loop.running;
    },
    start() {
      if (loop.running) return;
      abandoned = false;
      loop.start();
    },
    async stop(stopOptions = {}) {
      if (stopOptions.abandon) abandoned = true;
      await loop.stop();
    },
    runOnce: () => loop.runOnce(),
    catchUp,
    wake: () => loop.wake(),
  };
}
