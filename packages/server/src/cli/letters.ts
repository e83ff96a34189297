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

/**
 * What `incasso serve` runs for the 14-day letters: a letter runner in the server (unless
 * `--no-letter-runner`), so the reference server makes the letters with no extra setup.
 *
 * @example
 * const letters = startServeLetters(store, { noRunner: false });
 * console.log(letters.summary);
 * await letters.stop();
 */
export function startServeLetters(
  store: SqlStore,
  flags: { noRunner: boolean | undefined },
): { runner: LetterRunner | undefined; summary: string; stop(): Promise<void> } {
  const runner = flags.noRunner ? undefined : cliLetterRunner(store);
  runner?.start();
  return {
    runner,
    summary: runner
      ? "  letters: 14-day letters of pre-incasso orders made by this server"
      : "  letters: no letter runner here (--no-letter-runner); run incasso worker",
    stop: async () => {
      await runner?.stop();
    },
  };
}
