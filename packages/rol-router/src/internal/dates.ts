import { tzOffset } from "@date-fns/tz";

/**
 * Calendar days as integers (days since 1970-01-01), so date arithmetic in the hot path is plain
 * integer arithmetic without Date objects or time zones. The scheduling loops step from day to day
 * by adding one and read the weekday by a remainder; date-fns stays out of them because it was
 * measured (docs/decisions/dates-on-date-fns.md): its `getDay` costs at least 18 times
 * {@link weekdayOf} and its `lightFormat` 9 to 12 times {@link formatDay}, and a lookup with
 * hearing dates ran at 0.86 times the speed even with the platform's `Date` in {@link formatDay}.
 * The time zone is @date-fns/tz's ({@link amsterdamDay}).
 */

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day number of a calendar date. */
export function dayFromParts(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** Parses `YYYY-MM-DD`; returns undefined for a malformed or non-existent date (2026-02-30). */
export function parseIsoDay(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const n = dayFromParts(y, mo, d);
  const back = new Date(n * MS_PER_DAY);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return n;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * Year, month and day of a day number, by integer arithmetic (H. Hinnant, "civil_from_days"), so
 * the hot path allocates no Date objects.
 */
function civil(day: number): [year: number, month: number, date: number] {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** `YYYY-MM-DD` of a day number. */
export function formatDay(day: number): string {
  const [y, m, d] = civil(day);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Year of a day number. */
export function yearOf(day: number): number {
  return civil(day)[0];
}

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/**
 * The calendar date of an instant in the Netherlands. Courts and bailiffs work on Dutch dates, so
 * "today" at 00:30 CET is already the next day although UTC is not. The offset, with its
 * daylight-saving hour, comes from @date-fns/tz, as in @incasso/wik's amsterdamDate (this package
 * depends on no other package of ours).
 */
export function amsterdamDay(instant: Date): number {
  return Math.floor((instant.getTime() + tzOffset("Europe/Amsterdam", instant) * 60_000) / MS_PER_DAY);
}
