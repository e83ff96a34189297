import { WikError } from "./errors.js";
import { formatDay, toDay } from "./internal/calendar.js";
import { compiledSeries, LAST_KNOWN_DAY, rateIndexOn, rawRateTable } from "./internal/compiled-rates.js";

/**
 * The basis of statutory interest: `wettelijke_rente` (art. 6:119 BW, consumers and
 * non-commercial claims) or `wettelijke_handelsrente` (art. 6:119a BW, commercial agreements
 * between businesses; also art. 6:119b BW for a public body as debtor). These are also the
 * series names of the bundled rate table.
 *
 * @example
 * ```ts
 * import type { InterestType } from "@incasso/wik";
 * const type: InterestType = "wettelijke_handelsrente";
 * ```
 */
export type InterestType = "wettelijke_rente" | "wettelijke_handelsrente";

/**
 * One row of the bundled rate table: `percent` per year applies from `from` (inclusive) until the
 * next row. Every row names its `source`; `also` lists corroborating sources; `confidence` is
 * `"medium"` where the row rests on secondary sources only; `note` records conflicts.
 *
 * @example
 * ```ts
 * import type { RateTableRow } from "@incasso/wik";
 * const row: RateTableRow = { from: "2015-01-01", percent: 2, source: "https://zoek.officielebekendmakingen.nl/stb-2014-491.html" };
 * ```
 */
export interface RateTableRow {
  readonly from: string;
  readonly percent: number;
  readonly source: string;
  readonly also?: readonly string[];
  readonly confidence?: string;
  readonly note?: string;
}

/**
 * The last date for which the bundled table is known to give the rate: the end of the half-year
 * in which its newest rate took effect (rates are set per half-year, art. 6:120 BW). Interest for
 * a later day uses the newest known rate and is flagged `beyond_rate_table`
 * (docs/decisions/wik-rate-table-horizon.md).
 *
 * @example
 * ```ts
 * import { RATE_TABLE_LAST_KNOWN_DATE } from "@incasso/wik";
 * RATE_TABLE_LAST_KNOWN_DATE; // "2026-12-31"
 * ```
 */
export const RATE_TABLE_LAST_KNOWN_DATE: string = formatDay(LAST_KNOWN_DAY);

/**
 * The bundled statutory interest rate rows of one series, oldest first, with their sources,
 * exactly as in the package's copy of `statutory-interest-rates.json`. The rows are deeply
 * frozen (they are shared by every calculation): copy them before changing anything.
 *
 * @example
 * ```ts
 * import { getRateTable } from "@incasso/wik";
 * const rows = getRateTable("wettelijke_rente");
 * rows[0]; // { from: "2002-01-01", percent: 7, source: "https://www.raadvanarbitrage.nl/...", ... }
 * ```
 */
export function getRateTable(type: InterestType): readonly RateTableRow[] {
  if (type !== "wettelijke_rente" && type !== "wettelijke_handelsrente") {
    throw new WikError(
      "invalid_option",
      'type must be "wettelijke_rente" or "wettelijke_handelsrente"',
      "type",
    );
  }
  return rawRateTable[type];
}

/**
 * The annual rate in percent that the table gives for one calendar day, or `undefined` before
 * the series starts. Past {@link RATE_TABLE_LAST_KNOWN_DATE} this is the newest known rate, which
 * may since have changed.
 *
 * @param date - `YYYY-MM-DD`, or a `Date` read as its calendar date in the Netherlands.
 * @throws {@link WikError} `invalid_option` for an unknown type, `invalid_date` for a bad date.
 * @example
 * ```ts
 * import { rateInForceOn } from "@incasso/wik";
 * rateInForceOn("wettelijke_rente", "2024-06-30"); // 7
 * rateInForceOn("wettelijke_handelsrente", "2024-07-01"); // 12.25
 * ```
 */
export function rateInForceOn(type: InterestType, date: string | Date): number | undefined {
  getRateTable(type);
  const series = compiledSeries[type];
  const index = rateIndexOn(series, toDay(date, "date"));
  return index < 0 ? undefined : series.percent[index];
}
