import { RolRouterError } from "./errors.js";
import { closureDayNumbers, easterDay, isClosureDayNumber } from "./internal/closure-calendar.js";
import { formatDay, parseIsoDay, weekdayOf } from "./internal/dates.js";

/**
 * One day on which courts are closed and no summons may be served.
 *
 * @example
 * const d: ClosureDay = { datum: "2026-05-15", naam: "Gelijkgestelde dag", grondslag: "Besluit gelijkstelling …" };
 */
export interface ClosureDay {
  datum: string;
  naam: string;
  /** The rule behind it. */
  grondslag: string;
}

/**
 * First and last date for which the closure calendar is complete: the equated days (decrees) are
 * known for 2019 to 2028 only. Outside this range a Friday may be closed without the package knowing.
 *
 * @example
 * CALENDAR_KNOWN_RANGE.through; // "2028-12-31"
 */
export const CALENDAR_KNOWN_RANGE = { from: "2019-01-01", through: "2028-12-31" } as const;

/**
 * Easter Sunday (Gregorian calendar) as `YYYY-MM-DD`; Good Friday, Easter Monday, Ascension Day
 * and Whit Monday follow from it.
 *
 * @example
 * easterSunday(2026); // "2026-04-05"
 */
export function easterSunday(year: number): string {
  return formatDay(easterDay(year));
}

/**
 * The days of a year on which courts are closed and no summons may be served: the public holidays
 * of the Algemene termijnenwet (art. 3 lid 1), Good Friday (lid 2) and the days equated by Royal
 * Decree (lid 3; known for 2019-2028). Weekends are not listed. Per-court extra closure days are
 * not part of it (RULES.md § 3.5); pass them as `extraClosureDays`.
 *
 * @example
 * closureDays(2026).map((d) => d.datum);
 * // ["2026-01-01", "2026-01-02", "2026-04-03", "2026-04-06", "2026-04-27", "2026-05-05",
 * //  "2026-05-14", "2026-05-15", "2026-05-25", "2026-12-25", "2026-12-26"]
 */
export function closureDays(year: number): ClosureDay[] {
  return closureDayNumbers(year).map((d) => ({
    datum: formatDay(d.day),
    naam: d.naam,
    grondslag: d.grondslag,
  }));
}

/**
 * Whether courts are closed on a date: a Saturday, a Sunday or a {@link closureDays} day.
 *
 * @example
 * isCourtClosed("2026-05-15"); // true (equated day after Ascension)
 * isCourtClosed("2026-05-12"); // false
 * // throws RolRouterError (code "invalid_option") for a malformed date
 */
export function isCourtClosed(date: string): boolean {
  const day = parseIsoDay(date);
  if (day === undefined) throw new RolRouterError("invalid_option", `not a YYYY-MM-DD date: ${date}`);
  const wd = weekdayOf(day);
  return wd === 0 || wd === 6 || isClosureDayNumber(day);
}
