// The calendar date in the Netherlands: invoice dates, due dates, payment dates and "today" are
// Dutch calendar dates (spec: "Dates are YYYY-MM-DD"), whatever the server's time zone.
const FORMAT = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** `YYYY-MM-DD` of `at` in Europe/Amsterdam. */
export function amsterdamDate(at: Date): string {
  return FORMAT.format(at);
}
