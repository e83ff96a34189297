import { CALENDAR_KNOWN_RANGE } from "./court-calendar.js";

/**
 * Feasibility of a hearing date (spec, POST /tools/rol-router): `kan_niet` the one-week summons
 * term can no longer be met, `krap` it can but every step must go right, `ruim` there is margin.
 *
 * @example
 * const h: Haalbaarheid = "krap";
 */
export type Haalbaarheid = "kan_niet" | "krap" | "ruim";

/**
 * Options of the hearing-date planning. All have documented defaults
 * (docs/decisions/rol-router-haalbaarheid.md); `today` is injectable so results are deterministic.
 *
 * @example
 * const o: SchedulingOptions = { today: "2026-11-23", serviceDays: 3, ruimMarginDays: 5 };
 */
export interface SchedulingOptions {
  /** The current date (`YYYY-MM-DD`, or a Date read in Europe/Amsterdam). Default: now. */
  today?: string | Date;
  /** Bailiff's service time: days on which service is allowed, after today, before the summons can be served. Default 5. */
  serviceDays?: number;
  /** Whether the bailiff serves on Saturdays (allowed by art. 64 Rv, not usual). Default false. */
  saturdayService?: boolean;
  /** Spare service days needed to call a date `ruim`; fewer (but feasible) is `krap`. Default 5. */
  ruimMarginDays?: number;
  /** How many upcoming hearing dates to list per rolzitting. Default 6. */
  upcomingCount?: number;
  /** Further dates (`YYYY-MM-DD`) on which courts are closed and bailiffs do not serve. */
  extraClosureDays?: readonly string[];
  /** Last date for which the closure calendar is complete. Default 2028-12-31 (decrees known). */
  calendarKnownThrough?: string;
}

/**
 * Defaults of {@link SchedulingOptions} (docs/decisions/rol-router-haalbaarheid.md).
 *
 * @example
 * DEFAULT_SCHEDULING.serviceDays; // 5
 */
export const DEFAULT_SCHEDULING = {
  serviceDays: 5,
  saturdayService: false,
  ruimMarginDays: 5,
  upcomingCount: 6,
  calendarKnownThrough: CALENDAR_KNOWN_RANGE.through,
} as const;

/**
 * Days from service to the earliest roldatum: Rv art. 114 gives at least one week, art. 119 counts
 * it from the day after service and does not count the roldatum, so service date + 8 days.
 *
 * @example
 * SUMMONS_OFFSET_DAYS; // 8 (served Mon 2 Mar 2026, earliest roldatum Tue 10 Mar 2026)
 */
export const SUMMONS_OFFSET_DAYS = 8;

/**
 * One listed hearing date, in the spec's wire shape (RolRouterResult, roldagen.komende_roldata).
 *
 * @example
 * const d: KomendeRoldatum = { datum: "2026-12-08", dagen: 15, haalbaarheid: "krap" };
 */
export interface KomendeRoldatum {
  datum: string;
  dagen: number;
  haalbaarheid: Haalbaarheid;
}
