import { IncassoError } from "@incasso/core";

/**
 * Stable codes of {@link CaseSystemError}.
 *
 * | code | when |
 * |---|---|
 * | `case_not_found` | no such case for the organisation (or it is closed where an open one is needed) |
 * | `order_not_on_case` | an item of an order that is not on this case |
 * | `invalid_status` | not one of CASE_STATUSES |
 * | `invalid_payment` | an amount below 1 cent or a date that is not YYYY-MM-DD |
 * | `task_not_found` | no such task (on the case) |
 * | `task_not_open` | the task was done or rejected already |
 * | `invalid_task` | a payment booked for a task that is not a payment report |
 * | `no_invoices` | a letter for a case without invoices |
 * | `nothing_outstanding` | a letter for a case whose payments cover the principal |
 * | `letter_not_found` | no such letter on the case |
 * | `letter_job_not_found` | no letter job for the order (its letter was made, or it never had one) |
 * | `letter_job_running` | a letter runner holds the job right now |
 * | `invalid_request` | a handler request that breaks its schema (createCaseHandler) |
 * | `invalid_letter_details` | letter details with a value refused (an IBAN failing its check, a KvK number not of 8 digits, …) |
 * | `letter_details_missing` | a 14-day letter for an organisation whose letter details have no IBAN |
 *
 * @example
 * CASE_SYSTEM_ERROR_CODES.includes("case_not_found"); // true
 */
export const CASE_SYSTEM_ERROR_CODES = [
  "case_not_found",
  "order_not_on_case",
  "invalid_status",
  "invalid_payment",
  "task_not_found",
  "task_not_open",
  "invalid_task",
  "no_invoices",
  "nothing_outstanding",
  "letter_not_found",
  "letter_job_not_found",
  "letter_job_running",
  "invalid_request",
  "invalid_letter_details",
  "letter_details_missing",
] as const;

/**
 * One of {@link CASE_SYSTEM_ERROR_CODES}.
 *
 * @example
 * const code: CaseSystemErrorCode = "invalid_status";
 */
export type CaseSystemErrorCode = (typeof CASE_SYSTEM_ERROR_CODES)[number];

/**
 * An error of the built-in case system with a stable `code`. Through the CaseSystem port the order
 * engine turns any failure into 502 `upstream_error` or a warning; the handler functions throw it
 * to their caller. It is an IncassoError of @incasso/core (the one error type, issue 21).
 *
 * @example
 * throw new CaseSystemError("case_not_found", "No case 2026-000123 for this organisation.");
 */
export class CaseSystemError extends IncassoError<CaseSystemErrorCode> {
  /** Brand checked by {@link isCaseSystemError}; `instanceof` is unreliable across package copies. */
  readonly isIncassoCaseSystemError = true as const;

  constructor(code: CaseSystemErrorCode, message: string) {
    super(code, message);
    this.name = "CaseSystemError";
  }
}

/**
 * Whether a value is a {@link CaseSystemError}, also from another copy of this package.
 *
 * @example
 * try { await cases.bookPayment(input); } catch (e) { if (isCaseSystemError(e)) console.log(e.code); }
 */
export function isCaseSystemError(value: unknown): value is CaseSystemError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoCaseSystemError?: unknown }).isIncassoCaseSystemError === true
  );
}
