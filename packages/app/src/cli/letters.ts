import { createLetterRunner, type LetterRunner } from "@incasso/case-system";
import type { Logger } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { workerEventLogs } from "../logging/worker-event-logs.js";

/**
 * A letter runner for `incasso serve` and `incasso worker`: the 14-day letters of pre-incasso
 * orders from their jobs (decision case-system-wik-letter-jobs), logged to `logger`.
 *
 * @example
 * const runner = cliLetterRunner(store, { concurrency: 2, logger: createPinoLogger() });
 * runner.start();
 */
export function cliLetterRunner(
  store: SqlStore,
  options: { concurrency?: number; logger: Logger },
): LetterRunner {
  const events = workerEventLogs(options.logger);
  return createLetterRunner({
    store,
    logger: options.logger,
    onJob: events.onLetterJob,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
}
