import type { WikCalculation } from "./calculation-schema.js";
import { COLLECTION_COSTS_VAT_PERCENT } from "./collection-costs-scale.js";
import { WikError } from "./errors.js";
import { collectionCostsCents, vatCents } from "./internal/bik-fee.js";
import { amsterdamDay, dayFromCivil, formatDay, toDay } from "./internal/calendar.js";
import { type UncertainWindow, uncertainWithin } from "./internal/compiled-rates.js";
import type { DayCountBasis } from "./internal/interest-engine.js";
import { interestOnDays } from "./internal/interest-result.js";
import { safeAdd } from "./internal/rounding.js";
import { assertPrincipal, readBoolean, readChoice, readDebtorType } from "./internal/validate.js";
import type { WikRequestInput } from "./request-schema.js";
import type { DayCount } from "./statutory-interest.js";

/**
 * Options of {@link calculateWik}.
 *
 * @example
 * ```ts
 * import type { CalculateWikOptions } from "@incasso/wik";
 * const options: CalculateWikOptions = { today: "2026-11-21" };
 * ```
 */
export interface CalculateWikOptions {
  /**
   * The calculation date: interest runs up to and including it. `YYYY-MM-DD`, or a `Date` read as
   * its calendar date in the Netherlands (Europe/Amsterdam). Default: now.
   */
  today?: string | Date;
  /** Default `actual/365`; see `DayCount`. */
  dayCount?: DayCount;
  /** Default `extend`; see `StatutoryInterestInput.beyondRateTable`. */
  beyondRateTable?: "extend" | "throw";
}

const DAY_COUNTS: readonly DayCountBasis[] = ["actual/365", "actual/compounding-year"];
const BEYOND = ["extend", "throw"] as const;
// BIK art. 3: the decree does not apply when the debtor was in default before it took effect on
// 1 July 2012 (in-force date per RULES 1.3). Default starts the day after the due date.
const BIK_FIRST_DEFAULT_DAY = dayFromCivil(2012, 7, 1);

/**
 * The whole POST /tools/wik calculation as a library call: takes the endpoint's request object
 * (snake_case, as validated by `WikRequestSchema`; defaults are applied here too) and returns
 * the WikCalculation wire object: collection costs on the BIK scale (art. 2 BIK), optional 21% VAT
 * on them, statutory interest from the day after `due_date` up to and including `today`, and the
 * total. Indicative only; whether the costs may lawfully be charged is not checked. A field sent
 * as `null` is refused like any wrong type, as `WikRequestSchema` does: leave `due_date` out for
 * "no due date".
 *
 * @throws {@link WikError} with `field` set to the wire field: `invalid_request`,
 * `invalid_amount`, `invalid_debtor_type`, `invalid_date`, `invalid_option`,
 * `date_before_rate_table`, `beyond_rate_table`, `result_out_of_range`.
 * @example
 * ```ts
 * import { calculateWik } from "@incasso/wik";
 * const result = calculateWik(
 *   { amount_cents: 125_000, debtor_type: "consumer", due_date: "2025-11-21", include_vat: false },
 *   { today: "2026-11-21" },
 * );
 * result.collection_costs_cents; // 18750 (15% of EUR 1,250)
 * result.interest.days; // 365
 * ```
 */
export function calculateWik(request: WikRequestInput, options: CalculateWikOptions = {}): WikCalculation {
  if (typeof request !== "object" || request === null) {
    throw new WikError("invalid_request", "the request must be an object");
  }
  if (typeof options !== "object" || options === null) {
    throw new WikError("invalid_option", "options must be an object", "options");
  }
  const principal = request.amount_cents;
  assertPrincipal(principal, "amount_cents");
  const debtorType = readDebtorType(request.debtor_type, "debtor_type");
  const includeVat = readBoolean(request.include_vat, "include_vat", "invalid_option");
  // The spec types due_date as "date, not required", not nullable, and one schema serves library,
  // route and OpenAPI (WikRequestSchema refuses null): so null is refused here too, as any other
  // non-string (docs/decisions/wik-error-codes.md).
  const dueValue = request.due_date as unknown;
  if (dueValue !== undefined && typeof dueValue !== "string") {
    throw new WikError("invalid_date", "due_date must be a date string YYYY-MM-DD", "due_date");
  }
  const dueDay = dueValue === undefined ? null : toDay(dueValue, "due_date");
  const endDay = options.today === undefined ? amsterdamDay(new Date()) : toDay(options.today, "today");
  const dayCount = readChoice(options.dayCount, DAY_COUNTS, "actual/365", "dayCount");

  const costs = collectionCostsCents(principal);
  const vat = includeVat ? vatCents(costs) : 0;
  const interest = interestOnDays({
    principalCents: principal,
    debtorType,
    dueDay,
    endDay,
    dayCount,
    compounding: "yearly",
    beyondRateTable: readChoice(options.beyondRateTable, BEYOND, "extend", "beyondRateTable"),
    fields: { principal: "amount_cents", due: "due_date" },
  });
  let total: number;
  try {
    total = safeAdd(safeAdd(safeAdd(principal, costs), vat), interest.amount_cents);
  } catch {
    throw new WikError("result_out_of_range", "the total does not fit in a safe integer", "amount_cents");
  }

  return {
    object: "wik_calculation",
    debtor_type: debtorType,
    principal_amount_cents: principal,
    collection_costs_cents: costs,
    collection_costs_vat_cents: vat,
    interest,
    total_amount_cents: total,
    basis: basisText(includeVat, dueDay, endDay, interest),
  };
}

const range = (w: UncertainWindow) => `${formatDay(w.first)} to ${formatDay(w.last)}`;

/**
 * The sentence on rates the bundled table is not sure of (RULES.md § 4: verify before release):
 * the periods carry `rate_confidence: "medium"`, and `basis` says which days and why.
 */
function uncertainRatesText(windows: readonly UncertainWindow[]): string {
  if (windows.length === 0) return "";
  const secondary = windows.filter((w) => w.kind === "secondary").map(range);
  const conflict = windows.filter((w) => w.kind === "conflict").map(range);
  const reasons = [
    secondary.length > 0 && `for ${secondary.join(", ")} the rate rests on secondary sources only`,
    conflict.length > 0 && `for ${conflict.join(", ")} the sources disagree on the rate`,
  ].filter(Boolean);
  return ` Not every rate used is confirmed by an official publication: ${reasons.join(", and ")} (periods with rate_confidence "medium"); check those rates before relying on the interest.`;
}

/** The spec's `basis`: an indicative statement of what was computed, citing the rules. */
function basisText(
  includeVat: boolean,
  dueDay: number | null,
  endDay: number,
  interest: WikCalculation["interest"],
): string {
  let text =
    "Indicative calculation, not legal advice. Collection costs: scale of art. 2 Besluit vergoeding voor buitengerechtelijke incassokosten over the principal (minimum EUR 40, maximum EUR 6,775)";
  text += includeVat ? `, plus ${COLLECTION_COSTS_VAT_PERCENT}% VAT on the costs.` : ", without VAT.";
  if (dueDay !== null && dueDay + 1 < BIK_FIRST_DEFAULT_DAY) {
    text += " The scale does not apply if the debtor was in default before 1 July 2012 (art. 3 BIK).";
  }
  const law =
    interest.type === "wettelijke_rente"
      ? "wettelijke rente (art. 6:119 BW)"
      : "wettelijke handelsrente (art. 6:119a BW)";
  if (dueDay === null) {
    text += " Interest: none computed, no due date given.";
  } else if (dueDay >= endDay) {
    text += ` Interest: none yet, the due date ${interest.due_date} is not before ${interest.end_date}.`;
  } else {
    text += ` Interest: ${law} from the day after ${interest.due_date} up to and including ${interest.end_date}, compounded yearly, day count ${interest.day_count}, rounded per period to cents.`;
    if (interest.beyond_rate_table) {
      text += ` Rates after ${interest.rate_table_last_known_date} are not in the bundled table; the newest known rate was used.`;
    }
    text += uncertainRatesText(uncertainWithin(interest.type, dueDay + 1, endDay));
  }
  return `${text} Whether the costs may lawfully be charged is not checked (a consumer must first receive a 14-day letter, art. 6:96 lid 6 BW).`;
}
