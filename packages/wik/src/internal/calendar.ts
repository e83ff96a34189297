import { tzOffset } from "@date-fns/tz";
import { WikError } from "../errors.js";

/**
 * Calendar dates as integer day numbers (days since 1970-01-01), so that "the number of days
 * between two dates" is a subtraction and no time zone or daylight-saving hour can leak in.
 * The conversions are the proleptic Gregorian algorithms of H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms" (days_from_civil / civil_from_days).
 *
 * They stay written out here, on the hot path of every interest calculation (two dates parsed, a
 * year step per compounding year, the bounds of every period written), because they were measured
 * against the alternatives (docs/decisions/dates-on-date-fns.md): date-fns `addYears` costs 7 to
 * 10 times a year step here on a UTCDate and 195 to 290 times through @date-fns/tz's `TZDate`,
 * `parseISO` 9 to 12 times {@link parseIsoDay}, `lightFormat` 9 to 12 times {@link formatDay};
 * even the platform's `Date` in UTC took 1.4 to 1.9 times as long. The time zone is @date-fns/tz's
 * ({@link amsterdamDay}).
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `year` is a Gregorian leap year. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in month `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Day number of a civil date (month 1-12, day 1-31). */
export function dayFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil date `[year, month, day]` of a day number. */
export function civilFromDay(dayNumber: number): [number, number, number] {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return [year, month, day];
}

// Formatting dominates the cost of a long interest breakdown, and the same few thousand dates recur,
// so formatted days from 1970 up to 2199 are memoised (at most 84,000 short strings).
const FORMAT_CACHE_DAYS = 84_000;
const formatCache = new Map<number, string>();

/** `YYYY-MM-DD` of a day number. */
export function formatDay(dayNumber: number): string {
  const cached = formatCache.get(dayNumber);
  if (cached !== undefined) return cached;
  const [year, month, day] = civilFromDay(dayNumber);
  const text = `${String(year).padStart(4, "0")}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
  if (dayNumber >= 0 && dayNumber < FORMAT_CACHE_DAYS) formatCache.set(dayNumber, text);
  return text;
}

/**
 * Parses a strict `YYYY-MM-DD` calendar date (the spec's date format). Returns `undefined` for
 * anything else, including dates that do not exist such as 2025-02-29.
 */
export function parseIsoDay(value: string): number | undefined {
  const match = ISO_DATE.exec(value);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return dayFromCivil(year, month, day);
}

/**
 * The day `years` calendar years after `dayNumber`. A 29 February that does not exist in the
 * target year becomes 1 March, so that a year that starts on 29 February ends on 28 February
 * (the last day before the date one year later); see docs/decisions/wik-interest-period.md.
 * date-fns `addYears` would give 28 February instead.
 */
export function addYears(dayNumber: number, years: number): number {
  const [year, month, day] = civilFromDay(dayNumber);
  return civilPlusYears(year, month, day, years);
}

/** {@link addYears} on a civil date already split into its parts. */
export function civilPlusYears(year: number, month: number, day: number, years: number): number {
  const target = year + years;
  if (month === 2 && day === 29 && !isLeapYear(target)) return dayFromCivil(target, 3, 1);
  return dayFromCivil(target, month, day);
}

/**
 * The calendar date in the Netherlands (Europe/Amsterdam) at the instant `date`. Dutch law counts
 * whole calendar days in Dutch time, so "today" for a server in UTC must not flip a day early or
 * late around midnight. The offset, with its daylight-saving hour, comes from @date-fns/tz.
 */
export function amsterdamDay(date: Date): number {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError("Invalid time value");
  return Math.floor((ms + tzOffset("Europe/Amsterdam", date) * 60_000) / 86_400_000);
}

/**
 * Converts a date input (`YYYY-MM-DD` string or `Date`) to a day number, throwing `invalid_date`
 * with the given field name otherwise.
 */
export function toDay(value: unknown, field: string): number {
  if (typeof value === "string") {
    const day = parseIsoDay(value);
    if (day !== undefined) return day;
  } else if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return amsterdamDay(value);
  }
  throw new WikError("invalid_date", `${field} must be a calendar date in the form YYYY-MM-DD`, field);
}
