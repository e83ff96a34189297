import table from "../data/statutory-interest-rates.json" with { type: "json" };
import type { InterestType, RateTableRow } from "../rate-table.js";
import { civilFromDay, dayFromCivil, parseIsoDay } from "./calendar.js";

/**
 * The bundled rate table (a byte-identical copy of the shared data file, see
 * src/data/SOURCES.md), compiled once at load time into flat arrays that the interest loop can
 * walk without parsing dates.
 */

/** A series ready for calculation. Index i applies from `starts[i]` up to `starts[i + 1] - 1`. */
export interface CompiledSeries {
  readonly type: InterestType;
  /** First day (day number) of each rate. */
  readonly starts: readonly number[];
  /** The rate in percent. */
  readonly percent: readonly number[];
  /** The rate in hundredths of a percent, an exact integer. */
  readonly centiPercent: readonly number[];
  /** `YYYY-MM-DD` of the table row the rate comes from. */
  readonly rateFrom: readonly string[];
}

/** Freezes an object and everything in it (the JSON module is one shared instance). */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The rows as bundled, typed, and deeply frozen: `getRateTable` hands them out as they are, and a
 * caller that changed one would change every later calculation in the process.
 */
export const rawRateTable: Readonly<Record<InterestType, readonly RateTableRow[]>> = deepFreeze({
  wettelijke_rente: table.wettelijke_rente,
  wettelijke_handelsrente: table.wettelijke_handelsrente,
});

function compile(type: InterestType): CompiledSeries {
  const starts: number[] = [];
  const percent: number[] = [];
  const centiPercent: number[] = [];
  const rateFrom: string[] = [];
  for (const row of rawRateTable[type]) {
    const day = parseIsoDay(row.from);
    const centi = Math.round(row.percent * 100);
    // The table is data, so guard what the arithmetic relies on: real dates in strict order and
    // rates in whole hundredths of a percent.
    if (day === undefined || (starts.length > 0 && day <= (starts[starts.length - 1] as number))) {
      throw new Error(`rate table ${type}: bad or unordered date ${row.from}`);
    }
    if (Math.abs(centi - row.percent * 100) > 1e-6 || centi < 0) {
      throw new Error(`rate table ${type}: rate ${row.percent} is not in whole hundredths of a percent`);
    }
    // A row that repeats the previous rate (a half-yearly reset to the same value, such as the
    // handelsrente of 10.15% on 2025-07-01 and 2026-01-01) is no rate change, so it must not
    // split a period (art. 6:120 BW: only a change of rate applies to running interest).
    if (centiPercent.length > 0 && centiPercent[centiPercent.length - 1] === centi) continue;
    starts.push(day);
    percent.push(row.percent);
    centiPercent.push(centi);
    rateFrom.push(row.from);
  }
  return { type, starts, percent, centiPercent, rateFrom };
}

/** Both series, compiled. */
export const compiledSeries: Readonly<Record<InterestType, CompiledSeries>> = {
  wettelijke_rente: compile("wettelijke_rente"),
  wettelijke_handelsrente: compile("wettelijke_handelsrente"),
};

/** Last day of the half-year (30 June or 31 December) that contains `day`. */
function endOfHalfYear(day: number): number {
  const [year, month] = civilFromDay(day);
  return month <= 6 ? dayFromCivil(year, 6, 30) : dayFromCivil(year, 12, 31);
}

function lastRowDay(type: InterestType): number {
  const rows = rawRateTable[type];
  const last = rows[rows.length - 1];
  const day = last === undefined ? undefined : parseIsoDay(last.from);
  if (day === undefined) throw new Error(`rate table ${type} is empty`);
  return day;
}

/**
 * The last day for which the whole table is known to hold: both rates are fixed per half-year
 * (art. 6:120 lid 2 BW for the handelsrente; the 6:119 rate is reviewed per 1 January and 1 July,
 * Stb. 2014, 491), so the newest row of each series holds to the end of its half-year.
 */
export const LAST_KNOWN_DAY: number = Math.min(
  endOfHalfYear(lastRowDay("wettelijke_rente")),
  endOfHalfYear(lastRowDay("wettelijke_handelsrente")),
);

/** Index of the rate in force on `day`, or -1 before the series starts. */
export function rateIndexOn(series: CompiledSeries, day: number): number {
  const { starts } = series;
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle] as number) <= day) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * How sure the table is of a rate: `high` for a row corroborated by a dated public page or an
 * official text (the table's rows without a `confidence` mark, per its `_meta`), `medium` for a
 * row resting on secondary sources only or for days on which the table records a conflict between
 * sources. RULES.md § 4 asks to verify those before release, so results say when they were used.
 */
export type RateConfidence = "high" | "medium";

/** Days (inclusive) whose rate the table marks as uncertain, and why. */
export interface UncertainWindow {
  readonly first: number;
  readonly last: number;
  /** `secondary`: a row marked `confidence: "medium"`; `conflict`: an entry of `conflicts`. */
  readonly kind: "secondary" | "conflict";
}

/** The start of the first row after `day`, or Infinity. */
function nextRowStart(type: InterestType, day: number): number {
  for (const row of rawRateTable[type]) {
    const start = parseIsoDay(row.from) as number;
    if (start > day) return start;
  }
  return Number.POSITIVE_INFINITY;
}

function uncertainWindows(type: InterestType): UncertainWindow[] {
  const windows: UncertainWindow[] = [];
  for (const row of rawRateTable[type]) {
    if (row.confidence === undefined) continue;
    // Only "medium" is defined by the table; refuse anything else rather than guess its meaning.
    if (row.confidence !== "medium") {
      throw new Error(`rate table ${type}: unknown confidence ${row.confidence} on ${row.from}`);
    }
    const first = parseIsoDay(row.from) as number;
    windows.push({ first, last: nextRowStart(type, first) - 1, kind: "secondary" });
  }
  // A conflict dated D concerns the rate in force from D up to the next row after D (D need not be
  // the date of a row: a disputed change that the table does not make covers D up to the next
  // row). Conflicts without a date (such as the rounding of the 6:119 formula) do not concern a
  // particular rate.
  const conflicts = (table as { conflicts?: readonly { series?: string; date?: string }[] }).conflicts ?? [];
  for (const conflict of conflicts) {
    if (conflict.series !== type || conflict.date === undefined) continue;
    const first = parseIsoDay(conflict.date);
    if (first === undefined) throw new Error(`rate table ${type}: bad conflict date ${conflict.date}`);
    windows.push({ first, last: nextRowStart(type, first) - 1, kind: "conflict" });
  }
  return windows.sort((a, b) => a.first - b.first);
}

const uncertain: Readonly<Record<InterestType, readonly UncertainWindow[]>> = {
  wettelijke_rente: uncertainWindows("wettelijke_rente"),
  wettelijke_handelsrente: uncertainWindows("wettelijke_handelsrente"),
};

/** The confidence of the rates used on the days `first` to `last` (inclusive). */
export function rateConfidenceOf(type: InterestType, first: number, last: number): RateConfidence {
  for (const w of uncertain[type]) if (w.first <= last && w.last >= first) return "medium";
  return "high";
}

/**
 * The uncertain windows of a series clipped to the days `first` to `last`, adjacent windows of the
 * same kind merged: what a result's `basis` names.
 */
export function uncertainWithin(type: InterestType, first: number, last: number): UncertainWindow[] {
  const out: UncertainWindow[] = [];
  for (const w of uncertain[type]) {
    if (w.first > last || w.last < first) continue;
    const clipped = { first: Math.max(w.first, first), last: Math.min(w.last, last), kind: w.kind };
    const previous = out.findLast((o) => o.kind === w.kind);
    if (previous !== undefined && previous.last + 1 >= clipped.first) {
      out[out.lastIndexOf(previous)] = { ...previous, last: Math.max(previous.last, clipped.last) };
    } else {
      out.push(clipped);
    }
  }
  return out;
}
