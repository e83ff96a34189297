import { CALENDAR_KNOWN_RANGE } from "../court-calendar.js";
import { RolRouterError } from "../errors.js";
import {
  DEFAULT_SCHEDULING,
  type Haalbaarheid,
  type KomendeRoldatum,
  type SchedulingOptions,
  SUMMONS_OFFSET_DAYS,
} from "../scheduling-options.js";
import { isClosureDayNumber } from "./closure-calendar.js";
import { amsterdamDay, formatDay, parseIsoDay, weekdayOf } from "./dates.js";

/** Options resolved to numbers once, so per-lookup work is integer arithmetic. */
export interface ResolvedScheduling {
  today: number;
  serviceDays: number;
  saturdayService: boolean;
  ruimMarginDays: number;
  upcomingCount: number;
  extraClosure: ReadonlySet<number>;
  knownThrough: number;
  /** First day of the known closure calendar (equated days are known from 2019). */
  knownFrom: number;
  /** Earliest service day from today (see {@link earliestServiceDay}), computed once per lookup. */
  earliest: number;
}

function optionError(field: string, message: string): RolRouterError {
  return new RolRouterError("invalid_option", `${field}: ${message}`, [
    { field, code: "invalid_option", message },
  ]);
}

export function isoOption(field: string, value: string): number {
  const day = parseIsoDay(value);
  if (day === undefined) throw optionError(field, `expected a YYYY-MM-DD date, got ${JSON.stringify(value)}`);
  return day;
}

function countOption(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw optionError(field, `expected an integer from ${min} to ${max}`);
  }
  return value;
}

const todayCache = new Map<string, number>();

/** Resolves the "today" option: a date string as is, a Date as its date in the Netherlands. */
export function resolveToday(today: string | Date | undefined): number {
  if (today === undefined) return amsterdamDay(new Date());
  if (typeof today === "string") {
    let day = todayCache.get(today);
    if (day === undefined) {
      day = isoOption("today", today);
      if (todayCache.size > 256) todayCache.clear();
      todayCache.set(today, day);
    }
    return day;
  }
  if (Number.isNaN(today.getTime())) throw optionError("today", "invalid Date");
  return amsterdamDay(today);
}

const KNOWN_FROM = parseIsoDay(CALENDAR_KNOWN_RANGE.from) as number;

/** Validates and resolves {@link SchedulingOptions}; throws RolRouterError `invalid_option`. */
export function resolveScheduling(options: SchedulingOptions = {}): ResolvedScheduling {
  const s: ResolvedScheduling = {
    today: resolveToday(options.today),
    serviceDays: countOption("serviceDays", options.serviceDays ?? DEFAULT_SCHEDULING.serviceDays, 0, 60),
    saturdayService: options.saturdayService ?? DEFAULT_SCHEDULING.saturdayService,
    ruimMarginDays: countOption(
      "ruimMarginDays",
      options.ruimMarginDays ?? DEFAULT_SCHEDULING.ruimMarginDays,
      0,
      60,
    ),
    upcomingCount: countOption(
      "upcomingCount",
      options.upcomingCount ?? DEFAULT_SCHEDULING.upcomingCount,
      0,
      52,
    ),
    extraClosure: new Set((options.extraClosureDays ?? []).map((d) => isoOption("extraClosureDays", d))),
    knownThrough: isoOption(
      "calendarKnownThrough",
      options.calendarKnownThrough ?? DEFAULT_SCHEDULING.calendarKnownThrough,
    ),
    knownFrom: KNOWN_FROM,
    earliest: 0,
  };
  s.earliest = earliestServiceDay(s);
  return s;
}

/** The same resolved options for another day (the common per-request case: only `today` differs). */
export function withToday(base: ResolvedScheduling, today: string | Date | undefined): ResolvedScheduling {
  const s = { ...base, today: resolveToday(today) };
  s.earliest = earliestServiceDay(s);
  return s;
}

/** Courts sit on working days that are not a closure day. */
export function isCourtOpen(day: number, s: ResolvedScheduling): boolean {
  const wd = weekdayOf(day);
  return (
    wd !== 0 &&
    wd !== 6 &&
    !isClosureDayNumber(day) &&
    (s.extraClosure.size === 0 || !s.extraClosure.has(day))
  );
}

/**
 * Art. 64 Rv: no service on a Sunday or a recognised holiday (equated days included, art. 1077
 * lid 3 Rv). Saturdays are allowed by law; whether the bailiff uses them is an option.
 */
export function isServiceDay(day: number, s: ResolvedScheduling): boolean {
  const wd = weekdayOf(day);
  if (wd === 0 || (wd === 6 && !s.saturdayService)) return false;
  return !isClosureDayNumber(day) && (s.extraClosure.size === 0 || !s.extraClosure.has(day));
}

/** Earliest day the bailiff can serve: `serviceDays` service days after today (today not counted). */
export function earliestServiceDay(s: ResolvedScheduling): number {
  let day = s.today;
  if (s.serviceDays === 0) {
    while (!isServiceDay(day, s)) day++;
    return day;
  }
  let left = s.serviceDays;
  while (left > 0) {
    day++;
    if (isServiceDay(day, s)) left--;
  }
  return day;
}

/** Service days in (after, through], counted only up to `cap`: the caller needs "at least cap?". */
function countServiceDays(after: number, through: number, s: ResolvedScheduling, cap: number): number {
  let n = 0;
  for (let d = after + 1; d <= through && n < cap; d++) if (isServiceDay(d, s)) n++;
  return n;
}

function latestServiceDay(roldatum: number, s: ResolvedScheduling): number {
  let day = roldatum - SUMMONS_OFFSET_DAYS;
  // Backward-counted term (art. 1077 lid 2 Rv): no extension by the Algemene termijnenwet, so a
  // last day that is not a service day moves earlier, never later.
  while (!isServiceDay(day, s)) day--;
  return day;
}

/**
 * Feasibility of a hearing date given as day numbers. Internal fast path of {@link assessHaalbaarheid}.
 */
export function haalbaarheidOf(
  roldatum: number,
  betekening: number | undefined,
  s: ResolvedScheduling,
): Haalbaarheid {
  if (betekening !== undefined) {
    if (roldatum < betekening + SUMMONS_OFFSET_DAYS) return "kan_niet";
    // Served already (or today): nothing left that can go wrong with the term.
    if (betekening <= s.today) return "ruim";
    const spare = countServiceDays(betekening, roldatum - SUMMONS_OFFSET_DAYS, s, s.ruimMarginDays);
    return spare >= s.ruimMarginDays ? "ruim" : "krap";
  }
  const earliest = s.earliest;
  const latest = latestServiceDay(roldatum, s);
  if (earliest > latest) return "kan_niet";
  const spare = countServiceDays(earliest, latest, s, s.ruimMarginDays);
  return spare >= s.ruimMarginDays ? "ruim" : "krap";
}

/**
 * Hearing dates of one weekday (1 = Monday … 5 = Friday) for a result. Dates after `knownThrough`
 * are not listed (`truncated`); dates before `knownFrom` are listed, but the equated days of those
 * years are not known (`unchecked`). Both make the result say `feestdagenkalender`.
 */
export function planWeekday(
  weekday: number,
  betekening: number | undefined,
  s: ResolvedScheduling,
): { komende: KomendeRoldatum[]; vroegste: number | null; truncated: boolean; unchecked: boolean } {
  const komende: KomendeRoldatum[] = [];
  let day = s.today + 1;
  day += (weekday - weekdayOf(day) + 7) % 7;
  let truncated = false;
  let unchecked = false;
  for (; komende.length < s.upcomingCount; day += 7) {
    if (day > s.knownThrough) {
      truncated = true;
      break;
    }
    if (!isCourtOpen(day, s)) continue;
    if (day < s.knownFrom) unchecked = true;
    komende.push({
      datum: formatDay(day),
      dagen: day - s.today,
      haalbaarheid: haalbaarheidOf(day, betekening, s),
    });
  }
  const from = (betekening ?? s.earliest) + SUMMONS_OFFSET_DAYS;
  let first = Math.max(from, s.today + 1);
  first += (weekday - weekdayOf(first) + 7) % 7;
  while (first <= s.knownThrough && !isCourtOpen(first, s)) first += 7;
  const vroegste = first <= s.knownThrough ? first : null;
  if (vroegste !== null && vroegste < s.knownFrom) unchecked = true;
  return { komende, vroegste, truncated: truncated || vroegste === null, unchecked };
}
