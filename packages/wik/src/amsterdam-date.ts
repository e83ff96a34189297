// The calendar date in the Netherlands. Dutch law counts whole calendar days in Dutch time, and the
// spec's dates (invoice, due, payment dates and "today") are Dutch calendar dates ("Dates are
// YYYY-MM-DD"), whatever the server's time zone: at 00:30 CET it is already the next day although
// in UTC it is not. @incasso/core and @incasso/case-system take "today" from this function;
// @incasso/rol-router, which depends on no other package of ours, reads it from @date-fns/tz the
// same way (docs/decisions/dates-on-date-fns.md).
import { amsterdamDay, formatDay } from "./internal/calendar.js";

/**
 * `YYYY-MM-DD` of the instant `at` in Europe/Amsterdam.
 *
 * @throws {RangeError} when `at` is an invalid Date.
 * @example
 * amsterdamDate(new Date("2026-03-28T23:30:00Z")); // "2026-03-29"
 */
export function amsterdamDate(at: Date): string {
  return formatDay(amsterdamDay(at));
}
