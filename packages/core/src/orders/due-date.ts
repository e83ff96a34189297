import { addCalendarDays, isIsoDate } from "../calendar-dates.js";
import { OrdersError } from "./errors.js";

/**
 * The invoice fields that decide its due date.
 *
 * @example
 * const i: DueDateFields = { invoice_date: "2026-09-01", payment_term_days: 14 };
 */
export interface DueDateFields {
  invoice_date: string;
  due_date?: string | null;
  payment_term_days?: number | null;
}

/**
 * The due date of an invoice: `due_date` when given, otherwise `invoice_date` plus
 * `payment_term_days` calendar days (spec Invoice: "days after invoice date; the service computes
 * the due date"). A term of 0 makes the invoice due on its invoice date.
 *
 * @throws {OrdersError} `due_date_missing` when neither is given; `invalid_argument` when the dates
 * or the term are malformed. Validated invoices never cause either.
 * @example
 * dueDateOf({ invoice_date: "2026-01-31", payment_term_days: 30 }); // "2026-03-02"
 * dueDateOf({ invoice_date: "2026-01-31", due_date: "2026-02-14" }); // "2026-02-14"
 */
export function dueDateOf(invoice: DueDateFields): string {
  if (invoice.due_date !== undefined && invoice.due_date !== null) {
    if (!isIsoDate(invoice.due_date))
      throw new OrdersError("invalid_argument", "due_date is not a YYYY-MM-DD date");
    return invoice.due_date;
  }
  const term = invoice.payment_term_days;
  if (term === undefined || term === null) {
    throw new OrdersError("due_date_missing", "the invoice has neither due_date nor payment_term_days");
  }
  if (!Number.isSafeInteger(term) || term < 0) {
    throw new OrdersError("invalid_argument", "payment_term_days must be a whole number of at least 0");
  }
  if (!isIsoDate(invoice.invoice_date)) {
    throw new OrdersError("invalid_argument", "invoice_date is not a YYYY-MM-DD date");
  }
  return addCalendarDays(invoice.invoice_date, term);
}
