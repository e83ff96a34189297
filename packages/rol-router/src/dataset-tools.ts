import {
  type RolRouterDataset,
  RolRouterDatasetSchema,
  type RolRouterOverrides,
  RolRouterOverridesSchema,
} from "./dataset.js";
import { RolRouterError, type RolRouterFieldError } from "./errors.js";

function zodErrors(
  prefix: string,
  issues: readonly { path: PropertyKey[]; code: string; message: string }[],
) {
  return issues.map((i) => ({
    field: [prefix, ...i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))].join(""),
    code: i.code,
    message: i.message,
  }));
}

/**
 * Checks a dataset's shape and its references, and returns it unchanged: every municipality names
 * a known court with the same arrondissement; its kanton location (when set) exists and belongs to
 * that court and carries a confidence; location names and woonplaatscodes are unique; a location's
 * letter ranges do not send one letter to two different sessions; a location with sessions has a
 * `scheduleConfidence` and a `scheduleNote`.
 * Throws RolRouterError `invalid_dataset` listing every problem.
 *
 * @example
 * validateDataset(BUNDLED_DATASET); // returns it
 * validateDataset({ ...BUNDLED_DATASET, courts: [] }); // throws, code "invalid_dataset"
 */
export function validateDataset(dataset: RolRouterDataset): RolRouterDataset {
  const shape = RolRouterDatasetSchema.safeParse(dataset);
  if (!shape.success) {
    throw new RolRouterError(
      "invalid_dataset",
      "dataset has the wrong shape",
      zodErrors("data", shape.error.issues),
    );
  }
  const errors: RolRouterFieldError[] = [];
  const problem = (field: string, message: string) =>
    errors.push({ field, code: "invalid_reference", message });
  const courts = new Map(dataset.courts.map((c) => [c.name, c]));
  const locations = new Map<string, string>();
  dataset.locations.forEach((loc, i) => {
    if (locations.has(loc.name)) problem(`data.locations[${i}].name`, `duplicate location ${loc.name}`);
    locations.set(loc.name, loc.court);
    if (!courts.has(loc.court)) problem(`data.locations[${i}].court`, `unknown court ${loc.court}`);
    const slots = new Map<string, string>();
    for (const s of loc.sessions) {
      if (!s.letters) continue;
      if (s.letters.from > s.letters.to) problem(`data.locations[${i}].sessions`, "letter range from > to");
      for (let c = s.letters.from.charCodeAt(0); c <= s.letters.to.charCodeAt(0); c++) {
        const letter = String.fromCharCode(c);
        const slot = `${s.weekday} ${s.time}`;
        if ((slots.get(letter) ?? slot) !== slot)
          problem(`data.locations[${i}].sessions`, `letter ${letter} twice`);
        slots.set(letter, slot);
      }
    }
    // Every result carries the confidence and the source of the schedule it used (issue; decision
    // rol-router-schedule-confidence), so a location with sessions must have both.
    if (loc.sessions.length > 0 && loc.scheduleConfidence === null) {
      problem(
        `data.locations[${i}].scheduleConfidence`,
        "a location with sessions needs a scheduleConfidence",
      );
    }
    if (loc.sessions.length > 0 && loc.scheduleNote === null) {
      problem(`data.locations[${i}].scheduleNote`, "a location with sessions needs a scheduleNote");
    }
    if (loc.sessions.length > 1 && loc.splitKnown && loc.sessions.some((s) => s.letters === null)) {
      problem(
        `data.locations[${i}].splitKnown`,
        "several sessions without letters cannot have a known split",
      );
    }
  });
  const placeCodes = new Set<string>();
  dataset.municipalities.forEach((m, i) => {
    const court = courts.get(m.court);
    if (!court) problem(`data.municipalities[${i}].court`, `unknown court ${m.court}`);
    else if (court.arrondissement !== m.arrondissement) {
      problem(
        `data.municipalities[${i}].arrondissement`,
        `${m.arrondissement} is not the arrondissement of ${m.court}`,
      );
    }
    if (m.location !== null && locations.get(m.location) !== m.court) {
      problem(`data.municipalities[${i}].location`, `${m.location} is not a location of ${m.court}`);
    }
    if ((m.location === null) !== (m.confidence === null)) {
      problem(`data.municipalities[${i}].confidence`, "location and confidence are set together");
    }
    for (const [, code] of m.places) {
      if (placeCodes.has(code))
        problem(`data.municipalities[${i}].places`, `duplicate woonplaatscode ${code}`);
      placeCodes.add(code);
    }
  });
  if (errors.length > 0)
    throw new RolRouterError("invalid_dataset", `dataset has ${errors.length} problem(s)`, errors);
  return dataset;
}

/**
 * A copy of the dataset with a host's overrides applied and validated. Location overrides replace
 * the given fields of an existing location (addresses, sessions, confidence); municipality
 * overrides replace its location, confidence and source. A named location or municipality that
 * does not exist is an `invalid_dataset` error. `splitKnown` is recomputed from the sessions when
 * sessions are overridden and `splitKnown` is not. Overriding `sessions` drops the bundled
 * `scheduleConfidence` and `scheduleNote` (they described the old schedule): give your own, or the
 * overrides are refused with `invalid_dataset`.
 *
 * @example
 * const data = applyOverrides(BUNDLED_DATASET, {
 *   locations: { Leiden: { sessions: [{ weekday: "woensdag", time: "10:00", letters: null }],
 *     scheduleConfidence: "hoog", scheduleNote: "registry, 2026-11" } },
 * });
 */
export function applyOverrides(dataset: RolRouterDataset, overrides: RolRouterOverrides): RolRouterDataset {
  const parsed = RolRouterOverridesSchema.safeParse(overrides);
  if (!parsed.success) {
    throw new RolRouterError(
      "invalid_dataset",
      "overrides have the wrong shape",
      zodErrors("overrides", parsed.error.issues),
    );
  }
  const locationPatches = overrides.locations ?? {};
  const municipalityPatches = overrides.municipalities ?? {};
  const errors: RolRouterFieldError[] = [];
  for (const name of Object.keys(locationPatches)) {
    if (!dataset.locations.some((l) => l.name === name)) {
      errors.push({
        field: `overrides.locations.${name}`,
        code: "invalid_reference",
        message: `unknown location ${name}`,
      });
    }
  }
  for (const code of Object.keys(municipalityPatches)) {
    if (!dataset.municipalities.some((m) => m.code === code)) {
      errors.push({
        field: `overrides.municipalities.${code}`,
        code: "invalid_reference",
        message: `unknown municipality ${code}`,
      });
    }
  }
  if (errors.length > 0)
    throw new RolRouterError("invalid_dataset", "overrides name unknown records", errors);
  const merged: RolRouterDataset = {
    ...dataset,
    version: `${dataset.version}+overrides`,
    locations: dataset.locations.map((loc) => {
      const patch = locationPatches[loc.name];
      if (!patch) return loc;
      const next = { ...loc, ...patch };
      if (patch.sessions) {
        if (patch.splitKnown === undefined) {
          next.splitKnown = next.sessions.length <= 1 || next.sessions.every((s) => s.letters !== null);
        }
        // The bundled confidence and note describe the bundled schedule, not the host's: a new
        // schedule without its own confidence and note is refused by validateDataset.
        next.scheduleConfidence = patch.scheduleConfidence ?? null;
        next.scheduleNote = patch.scheduleNote ?? null;
      }
      return next;
    }),
    municipalities: dataset.municipalities.map((m) => {
      const patch = municipalityPatches[m.code];
      return patch ? { ...m, ...patch } : m;
    }),
  };
  return validateDataset(merged);
}
