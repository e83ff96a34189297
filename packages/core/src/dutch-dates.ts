// Dates in Dutch notation, for the console's pages and the case system's letters: the one module
// that writes them. A calendar date (`YYYY-MM-DD`) is written as the date it names; an instant is
// read on the clock in Europe/Amsterdam, daylight-saving time included (spec: the dates of the
// service are Dutch dates).
import { tzOffset } from "@date-fns/tz";
import { UTCDate, utc } from "@date-fns/utc";
import { format, lightFormat, parseISO } from "date-fns";
import { nl } from "date-fns/locale/nl";
import { isIsoDate } from "./calendar-dates.js";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DUTCH_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

/**
 * The clock in Amsterdam at an instant, as a UTCDate whose fields are those of the Dutch wall
 * clock: the instant moved by the zone's offset at that instant (@date-fns/tz). A `TZDate` of
 * @date-fns/tz gives the same fields at about three times the cost (docs/decisions/
 * dates-on-date-fns.md), and a console page writes up to a hundred of them.
 */
function amsterdamClock(value: string | Date): UTCDate {
  const at = new Date(value);
  return new UTCDate(at.getTime() + tzOffset("Europe/Amsterdam", at) * 60_000);
}

/**
 * A date in Dutch notation `DD-MM-YYYY`: a calendar date `YYYY-MM-DD` as written, an instant (a
 * Date or an ISO timestamp) as its date in Europe/Amsterdam.
 *
 * @throws {RangeError} when `value` is neither.
 * @example
 * formatDutchDate("2026-11-25"); // "25-11-2026"
 * formatDutchDate(new Date("2026-11-25T23:30:00Z")); // "26-11-2026"
 */
export function formatDutchDate(value: string | Date): string {
  const iso = typeof value === "string" ? ISO_DATE.exec(value) : null;
  if (iso !== null) return `${iso[3]}-${iso[2]}-${iso[1]}`;
  return lightFormat(amsterdamClock(value), "dd-MM-yyyy");
}

/**
 * A calendar date `YYYY-MM-DD` written out in Dutch, as a letter dates itself: the day, the month's
 * name and the year.
 *
 * @throws {RangeError} when `isoDate` is not a calendar date.
 * @example
 * formatDutchLongDate("2026-10-01"); // "1 oktober 2026"
 */
export function formatDutchLongDate(isoDate: string): string {
  return format(parseISO(isoDate, { in: utc }), "d MMMM yyyy", { locale: nl });
}

/**
 * An instant's time of day in Europe/Amsterdam, `HH:MM` on the 24-hour clock.
 *
 * @throws {RangeError} when `value` is not an instant.
 * @example
 * formatDutchTime(new Date("2026-11-25T20:15:00Z")); // "21:15"
 */
export function formatDutchTime(value: string | Date): string {
  return lightFormat(amsterdamClock(value), "HH:mm");
}

/**
 * An instant as `DD-MM-YYYY HH:MM` in Europe/Amsterdam.
 *
 * @throws {RangeError} when `value` is not an instant.
 * @example
 * formatDutchMoment("2026-11-25T20:15:00.000Z"); // "25-11-2026 21:15"
 */
export function formatDutchMoment(value: string | Date): string {
  return lightFormat(amsterdamClock(value), "dd-MM-yyyy HH:mm");
}

/**
 * A date typed as `DD-MM-YYYY` (or `YYYY-MM-DD`, as a date input sends it) as `YYYY-MM-DD`, or
 * undefined when it is not a real date. Spaces around it are ignored.
 *
 * @example
 * parseDutchDate("25-11-2026"); // "2026-11-25"
 * parseDutchDate("31-02-2026"); // undefined
 */
export function parseDutchDate(text: string): string | undefined {
  const t = text.trim();
  const dutch = DUTCH_DATE.exec(t);
  const iso = dutch ? `${dutch[3]}-${dutch[2]}-${dutch[1]}` : t;
  return isIsoDate(iso) ? iso : undefined;
}
