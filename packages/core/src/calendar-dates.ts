// Calendar dates (spec: "Dates are YYYY-MM-DD"): whether a string is one, and the date a number of
// days later. The arithmetic is date-fns's on @date-fns/utc's UTCDate, midnight in UTC, where every
// day has 24 hours, so a daylight-saving change in Europe/Amsterdam can never shift the result and
// the server's own time zone plays no part. Dutch notation is in dutch-dates.ts; "today in
// Amsterdam" is @incasso/wik's amsterdamDate.
import { utc } from "@date-fns/utc";
import { addDays, isValid, lightFormat, parseISO } from "date-fns";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether `value` is a real calendar date written `YYYY-MM-DD` (spec: "Dates are YYYY-MM-DD"):
 * four digits for the year, two for the month and the day, and a day its month has.
 *
 * @example
 * isIsoDate("2024-02-29"); // true
 * isIsoDate("2025-02-29"); // false
 * isIsoDate("2025-2-1"); // false
 */
export function isIsoDate(value: unknown): value is string {
  // parseISO refuses a month or a day out of range; the pattern refuses its other forms (week
  // dates, times, years of other lengths).
  return typeof value === "string" && ISO_DATE.test(value) && isValid(parseISO(value, { in: utc }));
}

/**
 * The calendar date `days` days after `date` (before it when `days` is negative), both
 * `YYYY-MM-DD`.
 *
 * @throws {RangeError} when `date` is not a calendar date.
 * @example
 * addCalendarDays("2026-01-31", 30); // "2026-03-02"
 * addCalendarDays("2026-03-01", -1); // "2026-02-28"
 */
export function addCalendarDays(date: string, days: number): string {
  return lightFormat(addDays(parseISO(date, { in: utc }), days), "yyyy-MM-dd");
}
