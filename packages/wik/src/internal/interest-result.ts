import type { InterestPeriod, WikInterest } from "../calculation-schema.js";
import { isWikError, WikError } from "../errors.js";
import { type InterestType, RATE_TABLE_LAST_KNOWN_DATE } from "../rate-table.js";
import { formatDay } from "./calendar.js";
import { compiledSeries, LAST_KNOWN_DAY, rateConfidenceOf, rateIndexOn } from "./compiled-rates.js";
import { type DayCountBasis, runInterest } from "./interest-engine.js";
import type { DebtorType } from "./validate.js";

/** Validated input of {@link interestOnDays}. */
export interface InterestOnDaysInput {
  principalCents: number;
  debtorType: DebtorType;
  dueDay: number | null;
  endDay: number;
  dayCount: DayCountBasis;
  compounding: "yearly" | "none";
  beyondRateTable: "extend" | "throw";
  /** Input field names for errors. */
  fields: { principal: string; due: string };
}

/** Shared by calculateStatutoryInterest and calculateWik once their input is validated. */
export function interestOnDays(input: InterestOnDaysInput): WikInterest {
  const type: InterestType = input.debtorType === "business" ? "wettelijke_handelsrente" : "wettelijke_rente";
  const series = compiledSeries[type];
  const { dueDay, endDay } = input;
  if (input.beyondRateTable === "throw" && dueDay !== null && endDay > dueDay && endDay > LAST_KNOWN_DAY) {
    throw new WikError(
      "beyond_rate_table",
      `interest would run past the rate table's last known date ${RATE_TABLE_LAST_KNOWN_DATE}`,
      input.fields.due,
    );
  }
  let result: ReturnType<typeof runInterest>;
  try {
    result = runInterest({
      series,
      principalCents: input.principalCents,
      dueDay: dueDay ?? endDay,
      endDay,
      dayCount: input.dayCount,
      compounding: input.compounding === "yearly",
      dueField: input.fields.due,
    });
  } catch (error) {
    // The engine does not know which input made a number overflow; it is always the principal.
    if (isWikError(error) && error.field === undefined) {
      throw new WikError(error.code, error.message, input.fields.principal);
    }
    throw error;
  }
  const periods: InterestPeriod[] = result.periods.map((period) => ({
    from: formatDay(period.firstDay),
    to: formatDay(period.lastDay),
    days: period.days,
    year: period.year,
    rate_percent: series.percent[period.rateIndex] as number,
    rate_from: series.rateFrom[period.rateIndex] as string,
    rate_confidence: rateConfidenceOf(type, period.firstDay, period.lastDay),
    principal_cents: period.baseCents,
    amount_cents: period.amountCents,
    beyond_rate_table: period.beyondTable,
  }));
  const lastPeriod = periods[periods.length - 1];
  let ratePercent: number;
  if (lastPeriod !== undefined) {
    ratePercent = lastPeriod.rate_percent;
  } else {
    const index = rateIndexOn(series, endDay);
    ratePercent = index < 0 ? 0 : (series.percent[index] as number);
  }
  return {
    amount_cents: result.amountCents,
    rate_percent: ratePercent,
    days: result.days,
    type,
    due_date: dueDay === null ? null : formatDay(dueDay),
    end_date: formatDay(endDay),
    compounding: input.compounding,
    day_count: input.dayCount,
    periods,
    rate_table_last_known_date: RATE_TABLE_LAST_KNOWN_DATE,
    beyond_rate_table: lastPeriod?.beyond_rate_table ?? false,
  };
}
