import type { WikInterest } from "./calculation-schema.js";
import { WikError } from "./errors.js";
import { amsterdamDay, toDay } from "./internal/calendar.js";
import type { DayCountBasis } from "./internal/interest-engine.js";
import { interestOnDays } from "./internal/interest-result.js";
import { assertPrincipal, type DebtorType, readChoice, readDebtorType } from "./internal/validate.js";

/**
 * How a day's interest is divided over the year. `actual/365` (default): each day earns
 * rate / 365, leap years included, as in the published Dutch formulas. `actual/compounding-year`:
 * each day earns rate / 365 or rate / 366, the number of days of the compounding year it falls in.
 * See docs/decisions/wik-day-count-and-rounding.md.
 *
 * @example
 * ```ts
 * import type { DayCount } from "@incasso/wik";
 * const dayCount: DayCount = "actual/365";
 * ```
 */
export type DayCount = DayCountBasis;

/**
 * Input of {@link calculateStatutoryInterest}.
 *
 * @example
 * ```ts
 * import type { StatutoryInterestInput } from "@incasso/wik";
 * const input: StatutoryInterestInput = {
 *   principalCents: 250_000, debtorType: "business", dueDate: "2024-03-31", endDate: "2026-03-31",
 * };
 * ```
 */
export interface StatutoryInterestInput {
  /** Principal in cents, a safe integer of at least 1. */
  principalCents: number;
  /** `consumer` (art. 6:119 BW) or `business` (art. 6:119a BW). Default `consumer`. */
  debtorType?: DebtorType;
  /**
   * The last day on which payment was on time (for a commercial agreement: the agreed or
   * statutory last payment day; for a consumer: the day after which the debtor is in default,
   * art. 6:81-6:83 BW). Absent or `null`: no interest.
   */
  dueDate?: string | Date | null;
  /** Last day counted, inclusive, usually the payment day. Default: today in the Netherlands. */
  endDate?: string | Date;
  /** Default `actual/365`. */
  dayCount?: DayCount;
  /** Default `yearly`, the statutory rule; `none` for simple interest agreed by contract. */
  compounding?: "yearly" | "none";
  /**
   * What to do when days after `RATE_TABLE_LAST_KNOWN_DATE` are counted: `extend` (default)
   * uses the newest known rate and sets `beyond_rate_table`; `throw` refuses with
   * `beyond_rate_table`.
   */
  beyondRateTable?: "extend" | "throw";
}

const DAY_COUNTS: readonly DayCount[] = ["actual/365", "actual/compounding-year"];
const COMPOUNDINGS = ["yearly", "none"] as const;
const BEYOND = ["extend", "throw"] as const;

/**
 * Statutory interest on a principal from the day after `dueDate` up to and including `endDate`:
 * wettelijke rente (art. 6:119 BW) for a consumer, wettelijke handelsrente (art. 6:119a BW) for a
 * business; every rate change splits the period (art. 6:120 BW); after each full year the year's
 * interest is added to the principal (art. 6:119 lid 2, 6:119a lid 3 BW). Rates come from the
 * bundled table. Returns the `interest` object of a WikCalculation with a per-period breakdown.
 *
 * A due date absent, or not before the end date, gives zero interest.
 *
 * @throws {@link WikError} `invalid_amount`, `invalid_debtor_type`, `invalid_date`,
 * `invalid_option`, `date_before_rate_table`, `beyond_rate_table`, `result_out_of_range`.
 * @example
 * ```ts
 * import { calculateStatutoryInterest } from "@incasso/wik";
 * const interest = calculateStatutoryInterest({
 *   principalCents: 100_000, debtorType: "business", dueDate: "2020-01-01", endDate: "2020-01-12",
 * });
 * interest.amount_cents; // 241 (EUR 1,000 x 8% x 11 / 365)
 * interest.periods.length; // 1
 * ```
 */
export function calculateStatutoryInterest(input: StatutoryInterestInput): WikInterest {
  if (typeof input !== "object" || input === null) {
    throw new WikError("invalid_request", "input must be an object");
  }
  assertPrincipal(input.principalCents, "principalCents");
  const debtorType = readDebtorType(input.debtorType, "debtorType");
  const dueDay =
    input.dueDate === undefined || input.dueDate === null ? null : toDay(input.dueDate, "dueDate");
  const endDay = input.endDate === undefined ? amsterdamDay(new Date()) : toDay(input.endDate, "endDate");
  return interestOnDays({
    principalCents: input.principalCents,
    debtorType,
    dueDay,
    endDay,
    dayCount: readChoice(input.dayCount, DAY_COUNTS, "actual/365", "dayCount"),
    compounding: readChoice(input.compounding, COMPOUNDINGS, "yearly", "compounding"),
    beyondRateTable: readChoice(input.beyondRateTable, BEYOND, "extend", "beyondRateTable"),
    fields: { principal: "principalCents", due: "dueDate" },
  });
}
