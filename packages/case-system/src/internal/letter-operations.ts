import type { BuiltInCaseSystem } from "../built-in-case-system.js";
import { CaseSystemError } from "../errors.js";
import { listLimit } from "./case-reads.js";
import { type CaseSystemContext, HANDLER } from "./case-writes.js";
import * as h from "./handler-queries.js";
import * as jobs from "./letter-job-queries.js";
import { type LetterDeps, makeOrderLetter, sendCaseLetter } from "./write-letter.js";

/**
 * The statutory 14-day letter of a case: made by a handler or from an order's letter job (the
 * letter runner), read back with its bytes, and the jobs listed and retried by the operator
 * (decisions case-system-wik-letter, case-system-wik-letter-jobs).
 *
 * @example
 * const { sendLetter } = letterOperations(caseSystemContext({ store }));
 * const letter = await sendLetter({ caseNumber: "2026-000001" }); // stored, recorded as sent
 */
export function letterOperations(
  ctx: CaseSystemContext,
): Pick<
  BuiltInCaseSystem,
  "sendLetter" | "readLetter" | "makeOrderLetter" | "listLetterJobs" | "retryLetterJob"
> {
  const { db, write, clock } = ctx;
  // The letter's transaction writes its event like every handler change.
  const letters: LetterDeps = { db, write: (fn) => write(HANDLER, fn) };
  return {
    sendLetter: (input) => sendCaseLetter(letters, { ...input, at: input.at ?? clock() }),

    readLetter: (input) => h.readLetter(db, input.caseNumber, input.letterId),

    makeOrderLetter: (input) => makeOrderLetter(letters, { ...input, at: input.at ?? clock() }),

    listLetterJobs: (query = {}) => jobs.listLetterJobs(db, { ...query, limit: listLimit(query.limit) }),

    async retryLetterJob(input) {
      const retried = await jobs.retryLetterJob(db, { orderId: input.orderId, now: input.at ?? clock() });
      if (retried !== undefined) return retried;
      const job = await jobs.findLetterJob(db, input.orderId);
      throw job === undefined
        ? new CaseSystemError("letter_job_not_found", `Order ${input.orderId} has no letter job.`)
        : new CaseSystemError(
            "letter_job_running",
            `A letter runner (${job.leaseOwner ?? "?"}) holds the job of order ${input.orderId} until ${job.dueAt?.toISOString() ?? "its lease ends"}.`,
          );
    },
  };
}
