import { WikError } from "../errors.js";
import { civilFromDay, civilPlusYears } from "./calendar.js";
import { type CompiledSeries, LAST_KNOWN_DAY, rateIndexOn } from "./compiled-rates.js";
import { multiplyDivideRoundHalfUp, safeAdd } from "./rounding.js";

/**
 * The statutory interest loop on day numbers. The rules it implements, with their sources
 * (RULES = the package's data/SOURCES.md and the shared RULES.md it summarises):
 *
 * - Days: every calendar day d with dueDay < d <= endDay earns one day of interest ("from the day
 *   after the last payment day up to and including the day of payment", art. 6:119a lid 1 BW;
 *   RULES 2.2 convention A).
 * - Rate: the rate in force on day d; a new rate applies to interest already running from the day
 *   it takes effect (art. 6:120 lid 1 and 2 BW), so every rate change splits the period.
 * - Compounding: after each full year, counted from the first interest day, the interest of that
 *   year is added to the amount on which interest is computed (art. 6:119 lid 2, 6:119a lid 3
 *   BW).
 * - Amounts: each sub-period (one rate, one compounding year) is rounded half up to cents; a
 *   year's capitalised interest is the sum of its rounded sub-periods
 *   (docs/decisions/wik-day-count-and-rounding.md).
 */

/** How a day's interest is divided over the year. */
export type DayCountBasis = "actual/365" | "actual/compounding-year";

/** One sub-period of the calculation, on day numbers. */
export interface EnginePeriod {
  /** First and last day counted, inclusive. */
  readonly firstDay: number;
  readonly lastDay: number;
  readonly days: number;
  /** 1 for the first compounding year, 2 for the second, ... */
  readonly year: number;
  /** Index of the rate in the compiled series. */
  readonly rateIndex: number;
  /** The amount interest is computed on: the principal plus interest capitalised so far. */
  readonly baseCents: number;
  readonly amountCents: number;
  /** Whether the period lies after the table's last known date. */
  readonly beyondTable: boolean;
}

/** Result of {@link runInterest}. */
export interface EngineResult {
  readonly amountCents: number;
  readonly days: number;
  readonly periods: EnginePeriod[];
}

/** Input of {@link runInterest}; all values already validated. */
export interface EngineInput {
  readonly series: CompiledSeries;
  readonly principalCents: number;
  readonly dueDay: number;
  readonly endDay: number;
  readonly dayCount: DayCountBasis;
  readonly compounding: boolean;
  /** Name of the input field the due date came from, for errors. */
  readonly dueField: string;
}

/** Runs the calculation; zero interest when endDay <= dueDay. */
export function runInterest(input: EngineInput): EngineResult {
  const { series, dueDay, endDay, dayCount, compounding } = input;
  const periods: EnginePeriod[] = [];
  if (endDay <= dueDay) return { amountCents: 0, days: 0, periods };

  const firstDay = dueDay + 1;
  let rateIndex = rateIndexOn(series, firstDay);
  if (rateIndex < 0) {
    throw new WikError(
      "date_before_rate_table",
      `interest would run before the first date of the ${series.type} table (${series.rateFrom[0]})`,
      input.dueField,
    );
  }
  const { starts, centiPercent } = series;
  let base = input.principalCents;
  let total = 0;
  const [firstYear, firstMonth, firstDate] = civilFromDay(firstDay);
  let year = 1;
  let yearStart = firstDay;
  while (yearStart <= endDay) {
    // The k-th year runs from the first interest day plus k - 1 years up to the day before the
    // first interest day plus k years (a year of 365 or 366 days).
    const nextYearStart = civilPlusYears(firstYear, firstMonth, firstDate, year);
    const yearLast = Math.min(nextYearStart - 1, endDay);
    const denominator = (dayCount === "actual/365" ? 365 : nextYearStart - yearStart) * 10_000;
    let yearInterest = 0;
    let cursor = yearStart;
    while (cursor <= yearLast) {
      while (rateIndex + 1 < starts.length && (starts[rateIndex + 1] as number) <= cursor) rateIndex++;
      let last = yearLast;
      const nextChange = starts[rateIndex + 1];
      if (nextChange !== undefined && nextChange - 1 < last) last = nextChange - 1;
      // Split at the table's horizon too, so the days computed with an assumed rate are visible.
      if (cursor <= LAST_KNOWN_DAY && LAST_KNOWN_DAY < last) last = LAST_KNOWN_DAY;
      const days = last - cursor + 1;
      // interest = base x (centiPercent / 10,000) x days / (days in the year)
      const amount = multiplyDivideRoundHalfUp(base, centiPercent[rateIndex] as number, days, denominator);
      periods.push({
        firstDay: cursor,
        lastDay: last,
        days,
        year,
        rateIndex,
        baseCents: base,
        amountCents: amount,
        beyondTable: cursor > LAST_KNOWN_DAY,
      });
      yearInterest = safeAdd(yearInterest, amount);
      cursor = last + 1;
    }
    total = safeAdd(total, yearInterest);
    // Only a completed year is capitalised; a final partial year's interest is not.
    if (compounding && yearLast === nextYearStart - 1) base = safeAdd(base, yearInterest);
    year++;
    yearStart = nextYearStart;
  }
  return { amountCents: total, days: endDay - dueDay, periods };
}
