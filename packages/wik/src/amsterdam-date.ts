// The calendar date in the Netherlands. Dutch law counts whole calendar days in Dutch time, and the
// spec's dates (invoice, due, payment dates and "today") are Dutch calendar dates ("Dates are
// YYYY-MM-DD"), whatever the server's time zone: at 00:30 CET it is already the next day although
// in UTC it is not. Every package asks this one function for "today in Amsterdam".

let format: Intl.DateTimeFormat | undefined;

/**
 * `YYYY-MM-DD` of the instant `at` in Europe/Amsterdam.
 *
 * @example
 * amsterdamDate(new Date("2026-03-28T23:30:00Z")); // "2026-03-29"
 */
export function amsterdamDate(at: Date): string {
  // Made on first use: a process that never asks pays nothing at start.
  format ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Amsterdam",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return format.format(at);
}
