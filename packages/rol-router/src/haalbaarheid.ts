import { haalbaarheidOf, isCourtOpen, isoOption, resolveScheduling } from "./internal/scheduling.js";
import type { Haalbaarheid, SchedulingOptions } from "./scheduling-options.js";

/**
 * Feasibility of summoning for a hearing date, from today.
 *
 * Without `betekeningsdatum`: the bailiff can serve at the earliest `serviceDays` service days after
 * today (E) and at the latest on the last service day on or before roldatum − 8 (L; art. 114 and
 * 119 Rv: one week, counted from the day after service, the roldatum not counted). E after L is
 * `kan_niet`; otherwise the service days after E up to L are the margin: at least `ruimMarginDays`
 * is `ruim`, fewer is `krap`. With `betekeningsdatum`: before service date + 8 is `kan_niet`; a
 * service date today or earlier is `ruim`; a future one is judged on the margin after it.
 * A roldatum on which the court is closed (weekend, {@link closureDays} day or one of the
 * `extraClosureDays`) is `kan_niet`: no hearing is held that day (RULES.md § 3.8 step 1).
 *
 * @example
 * assessHaalbaarheid("2026-12-08", { today: "2026-11-23" }); // "krap"
 * assessHaalbaarheid("2026-12-01", { today: "2026-11-23" }); // "kan_niet"
 * assessHaalbaarheid("2026-12-15", { today: "2026-11-23" }); // "ruim"
 * assessHaalbaarheid("2026-12-25", { today: "2026-11-23" }); // "kan_niet" (Christmas Day)
 */
export function assessHaalbaarheid(
  roldatum: string,
  options: SchedulingOptions & { betekeningsdatum?: string } = {},
): Haalbaarheid {
  const s = resolveScheduling(options);
  const r = isoOption("roldatum", roldatum);
  const b =
    options.betekeningsdatum === undefined
      ? undefined
      : isoOption("betekeningsdatum", options.betekeningsdatum);
  // RULES.md § 3.8 step 1: the court must be open on the roldatum before service can matter.
  if (!isCourtOpen(r, s)) return "kan_niet";
  return haalbaarheidOf(r, b, s);
}
