import { z } from "zod";

// The wire objects of the letter jobs (decision case-system-wik-letter-jobs), snake_case like the
// handler's other objects (case-handler-schemas), for `incasso cases letter-jobs` and its --json.

const Timestamp = z.iso.datetime({ offset: true });
const OrderId = z.string().min(1).max(50).describe("The order id `ord_…` of the pre-incasso order.");

/**
 * The state of a letter job: `pending` (due at `due_at`), `running` (a runner holds it until
 * `due_at`) or `failed` (no more attempts; retry it after repairing the cause).
 *
 * @example
 * LetterJobStateSchema.parse("failed");
 */
export const LetterJobStateSchema = z.enum(["pending", "running", "failed"]).meta({
  id: "LetterJobState",
  description: "pending (due at due_at), running (leased until due_at) or failed (no more attempts).",
});

/**
 * Request of {@link CaseHandler.listLetterJobs}.
 *
 * @example
 * ListLetterJobsRequestSchema.parse({ state: "failed" });
 */
export const ListLetterJobsRequestSchema = z
  .object({
    state: LetterJobStateSchema.optional().describe(
      "Only jobs in this state; default every job still there.",
    ),
    case_number: z.string().min(1).max(50).optional().describe("Only this case's jobs."),
    limit: z.int().min(1).max(1000).optional().describe("Default 100."),
  })
  .strict()
  .meta({ id: "ListLetterJobsRequest", description: "Filters of the letter job list." });

/**
 * A letter job: the 14-day letter of a pre-incasso order still to make, being made, or failed.
 *
 * @example
 * LetterJobViewSchema.parse({ object: "letter_job", order_id: "ord_0123456789abcdef", case_number: "2026-000001",
 *   state: "failed", attempts: 6, due_at: null, runner: null, last_error: "connection refused",
 *   created_at: "2026-11-21T10:00:00.000Z", updated_at: "2026-11-22T09:00:00.000Z" });
 */
export const LetterJobViewSchema = z
  .object({
    object: z.literal("letter_job"),
    order_id: OrderId,
    case_number: z.string(),
    state: LetterJobStateSchema,
    attempts: z.int().min(0).describe("Attempts made since the job was recorded or last retried."),
    due_at: Timestamp.nullable().describe("Pending: when it is due; running: when the lease runs out."),
    runner: z.string().nullable().describe("The runner holding a running job."),
    last_error: z.string().nullable().describe("Why the last attempt failed."),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "LetterJob", description: "The letter job of a pre-incasso order." });

/**
 * Response of {@link CaseHandler.listLetterJobs}, newest first.
 *
 * @example
 * const jobs = LetterJobListSchema.parse(await handler.listLetterJobs({ state: "failed" }));
 */
export const LetterJobListSchema = z
  .object({ object: z.literal("list"), data: z.array(LetterJobViewSchema) })
  .meta({ id: "LetterJobList", description: "Letter jobs, newest first." });

/**
 * Request of {@link CaseHandler.retryLetterJob}.
 *
 * @example
 * RetryLetterJobRequestSchema.parse({ order_id: "ord_0123456789abcdef" });
 */
export const RetryLetterJobRequestSchema = z
  .object({ order_id: OrderId })
  .strict()
  .meta({ id: "RetryLetterJobRequest", description: "The order whose letter job to try again now." });
