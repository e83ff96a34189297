import { createLetterRunner, type LetterRunner } from "@incasso/case-system";
import type { SqlStore } from "@incasso/store-sql";

/**
 * A letter runner for `incasso serve` and `incasso worker`: the 14-day letters of pre-incasso
 * orders from their jobs (decision case-system-wik-letter-jobs), failures on the console.
 *
 * @example
 * const runner = cliLetterRunner(store, { concurrency: 2 });
 * runner.start();
 */
export function cliLetterRunner(store: SqlStore, options: { concurrency?: number } = {}): LetterRunner {
  return createLetterRunner({
    store,
    logger: {
      warn: (m, f) => console.warn(m, f ?? ""),
      error: (m, f) => console.error(m, f ?? ""),
    },
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
}
