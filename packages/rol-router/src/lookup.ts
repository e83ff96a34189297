import { BUNDLED_DATASET } from "./data/bundle.generated.js";
import type {
  KantonLocation,
  Municipality,
  RolRouterDataset,
  RolRouterOverrides,
  Session,
} from "./dataset.js";
import { applyOverrides, validateDataset } from "./dataset-tools.js";
import { RolRouterError } from "./errors.js";
import { formatDay, parseIsoDay } from "./internal/dates.js";
import { DISCLAIMER } from "./internal/disclaimer.js";
import { buildPlaceIndex, type PlaceIndex, type PlaceRef, resolvePlace } from "./internal/place-index.js";
import {
  isServiceDay,
  planWeekday,
  type ResolvedScheduling,
  resolveScheduling,
  withToday,
} from "./internal/scheduling.js";
import { analyseName, type NameAnalysis } from "./maatgevende-letter.js";
import { type RolRouterRequestInput, RolRouterRequestSchema } from "./request-schema.js";
import type {
  MISSING_PARTS,
  RolRouterPlaceOption,
  RolRouterResult,
  RolRouterRoldag,
} from "./result-schema.js";
import type { SchedulingOptions } from "./scheduling-options.js";

/**
 * Options of a router: the data to use and the planning defaults (see {@link SchedulingOptions}).
 *
 * @example
 * const options: RolRouterOptions = { serviceDays: 3, overrides: { municipalities: {} } };
 */
export interface RolRouterOptions extends SchedulingOptions {
  /** A whole dataset to use instead of the bundled one (validated once). */
  data?: RolRouterDataset;
  /** Per-location and per-municipality overrides applied on top of `data` (or the bundled data). */
  overrides?: RolRouterOverrides;
}

/**
 * A router bound to one dataset, with its place index built once.
 *
 * @example
 * const router = createRolRouter();
 * router.lookup({ woonplaats: "Assen", naam: "Jansen" }, { today: "2026-11-23" }).status; // "ok"
 */
export interface RolRouter {
  /** The dataset in use (bundled, host-supplied, and/or with overrides applied). */
  readonly dataset: RolRouterDataset;
  /** Looks up one request; per-call options override the router's planning defaults. */
  lookup(request: RolRouterRequestInput, options?: SchedulingOptions): RolRouterResult;
}

const WEEKDAY_NUMBER = { maandag: 1, dinsdag: 2, woensdag: 3, donderdag: 4, vrijdag: 5 } as const;
const DOWNGRADES = new Set([
  "kantonlocatie",
  "rolzitting",
  "letterverdeling",
  "roltijd",
  "maatgevende_letter",
]);
type Missing = (typeof MISSING_PARTS)[number];

/**
 * Creates a router. Build it once (for example at server start) and call `lookup` per request.
 * Throws RolRouterError `invalid_dataset` for inconsistent data or overrides and `invalid_option`
 * for malformed planning options.
 *
 * @example
 * const router = createRolRouter({ serviceDays: 3 });
 * const result = router.lookup({ woonplaats: "Amsterdam", naam: "de Vries" }, { today: new Date() });
 */
export function createRolRouter(options: RolRouterOptions = {}): RolRouter {
  const { data, overrides, ...defaults } = options;
  let dataset = data ? validateDataset(data) : BUNDLED_DATASET;
  if (overrides) dataset = applyOverrides(dataset, overrides);
  // Resolve once: malformed defaults fail at creation, and a request that only sets `today` (the
  // usual case) reuses the resolved defaults.
  const base = resolveScheduling({ ...defaults, today: defaults.today ?? "2026-01-01" });
  const onlyToday = (o: SchedulingOptions) => {
    for (const key in o) if (key !== "today") return false;
    return true;
  };
  const index = buildPlaceIndex(dataset);
  const locations = new Map(dataset.locations.map((l) => [l.name, l]));
  return {
    dataset,
    lookup(request, callOptions = {}) {
      const s = onlyToday(callOptions)
        ? withToday(base, callOptions.today ?? defaults.today)
        : resolveScheduling({ ...defaults, ...callOptions });
      return lookup(dataset, index, locations, request, s);
    },
  };
}

const NO_OVERRIDES = {};
const routers = new WeakMap<RolRouterDataset, WeakMap<object, RolRouter>>();

function cachedRouter(
  data: RolRouterDataset | undefined,
  overrides: RolRouterOverrides | undefined,
): RolRouter {
  const dataKey = data ?? BUNDLED_DATASET;
  let byOverrides = routers.get(dataKey);
  if (!byOverrides) {
    byOverrides = new WeakMap();
    routers.set(dataKey, byOverrides);
  }
  const overridesKey = overrides ?? NO_OVERRIDES;
  let router = byOverrides.get(overridesKey);
  if (!router) {
    router = createRolRouter({ data, overrides });
    byOverrides.set(overridesKey, router);
  }
  return router;
}

/**
 * Looks up court, kanton location and hearing days for a defendant (POST /tools/rol-router as a
 * function). Takes and returns the spec's wire objects. Routers for a given `data` / `overrides`
 * object are cached, so passing the same objects on every call costs nothing extra.
 * Throws RolRouterError `invalid_request` (with `errors[]`) when the request fails
 * {@link RolRouterRequestSchema}.
 *
 * @example
 * const r = lookupRolRouter({ woonplaats: "Den Haag", naam: "van der Berg" }, { today: "2026-11-23" });
 * r.status;             // "incomplete": the split of Den Haag's four roll days is not known
 * r.rechtbank;          // "Rechtbank Den Haag"
 * r.maatgevende_letter; // "B"
 */
export function lookupRolRouter(
  request: RolRouterRequestInput,
  options: RolRouterOptions = {},
): RolRouterResult {
  const { data, overrides, ...scheduling } = options;
  const router = cachedRouter(data, overrides);
  return router.lookup(request, scheduling);
}

/** The fields every unresolved result has. */
function common(
  dataset: RolRouterDataset,
  status: "not_found" | "ambiguous",
  woonplaats: string,
  letter: string | null,
) {
  return {
    object: "rol_router_result" as const,
    status,
    woonplaats,
    maatgevende_letter: letter,
    disclaimer: DISCLAIMER,
    bronvermelding: dataset.credits.slice(),
    ontbrekend: [],
  };
}

function option(ref: PlaceRef): RolRouterPlaceOption {
  return {
    woonplaats: ref.name,
    gemeente: ref.municipality.name,
    gemeentecode: ref.municipality.code,
    provincie: ref.municipality.province,
  };
}

function lookup(
  dataset: RolRouterDataset,
  index: PlaceIndex,
  locations: Map<string, KantonLocation>,
  input: RolRouterRequestInput,
  s: ResolvedScheduling,
): RolRouterResult {
  const parsed = RolRouterRequestSchema.safeParse(input);
  if (!parsed.success) {
    throw new RolRouterError(
      "invalid_request",
      "request does not match RolRouterRequest",
      parsed.error.issues.map((i) => ({
        field: i.path
          .map((p, n) => (typeof p === "number" ? `[${p}]` : n === 0 ? String(p) : `.${String(p)}`))
          .join(""),
        code: i.code,
        message: i.message,
      })),
    );
  }
  const request = parsed.data;
  const name = analyseName(request.naam);
  const opmerkingen: string[] = [];
  if (name.letter === null) opmerkingen.push("Uit de naam is geen maatgevende letter af te leiden.");
  const betekening =
    request.betekeningsdatum === undefined ? undefined : parseIsoDay(request.betekeningsdatum);
  if (betekening !== undefined && !isServiceDay(betekening, { ...s, saturdayService: true })) {
    opmerkingen.push(
      `Op ${request.betekeningsdatum} mag zonder verlof van de kantonrechter niet worden betekend (zondag of erkende feestdag, art. 64 Rv).`,
    );
  }

  const resolution = resolvePlace(index, request.woonplaats, request.gemeente, request.provincie);
  if (resolution.kind === "not_found") {
    opmerkingen.unshift(
      resolution.suggestions.length > 0
        ? `Woonplaats '${request.woonplaats}' niet gevonden; zie de suggesties.`
        : `Woonplaats '${request.woonplaats}' niet gevonden.`,
    );
    return {
      ...common(dataset, "not_found", request.woonplaats, name.letter),
      suggesties: resolution.suggestions.map(option),
      opmerkingen,
      data_versie: dataset.version,
    };
  }
  if (resolution.kind === "conflict") {
    const narrowed = [
      request.gemeente && `gemeente '${request.gemeente}'`,
      request.provincie && `provincie '${request.provincie}'`,
    ]
      .filter(Boolean)
      .join(" en ");
    opmerkingen.unshift(
      `Woonplaats '${request.woonplaats}' bestaat, maar niet in ${narrowed}; zie de suggesties.`,
    );
    return {
      ...common(dataset, "not_found", request.woonplaats, name.letter),
      suggesties: resolution.candidates.map(option),
      opmerkingen,
      data_versie: dataset.version,
    };
  }
  if (resolution.kind === "ambiguous") {
    const count = new Set(resolution.options.map((o) => o.municipality.code)).size;
    opmerkingen.unshift(
      `Woonplaats '${request.woonplaats}' komt voor in ${count} gemeenten; stuur 'gemeente' of 'provincie' mee.`,
    );
    return {
      ...common(dataset, "ambiguous", request.woonplaats, name.letter),
      opties: resolution.options.map(option),
      opmerkingen,
      data_versie: dataset.version,
    };
  }
  return resolved(dataset, locations, resolution.place, name, betekening, s, opmerkingen);
}

function resolved(
  dataset: RolRouterDataset,
  locations: Map<string, KantonLocation>,
  place: PlaceRef,
  name: NameAnalysis,
  betekening: number | undefined,
  s: ResolvedScheduling,
  opmerkingen: string[],
): RolRouterResult {
  const m: Municipality = place.municipality;
  const missing: Missing[] = [];
  const loc = m.location === null ? undefined : locations.get(m.location);
  let roldagen: RolRouterRoldag[] | undefined;
  if (!loc) {
    missing.push("kantonlocatie");
    opmerkingen.push(
      `Geen bron wijst de gemeente ${m.name} aan een kantonlocatie toe; alleen rechtbank en arrondissement zijn bekend.`,
    );
  } else {
    // The source's own remarks on age and gaps of this location's addresses and schedule.
    opmerkingen.push(`Kantonlocatie ${loc.name}: ${loc.note}.`);
    if (loc.visitingAddress === null) missing.push("bezoekadres");
    const pa = loc.postalAddress;
    if (pa.postbus === null && pa.postcode === null && pa.plaats === null)
      missing.push("correspondentieadres");
    roldagen = schedule(loc, name, betekening, s, missing, opmerkingen);
  }
  let status: "ok" | "incomplete" = "ok";
  for (const part of missing) if (DOWNGRADES.has(part)) status = "incomplete";
  // A calendar gap alone only shortens the list; when it removes the earliest feasible date or every
  // listed date, the result no longer answers "when can this be heard" (spec: incomplete).
  if (
    roldagen?.some(
      (r) => r.vroegste_roldatum === null || (s.upcomingCount > 0 && r.komende_roldata.length === 0),
    )
  ) {
    status = "incomplete";
  }
  // Built by assignment, in wire order, so optional fields are absent rather than undefined.
  const result: RolRouterResult = {
    object: "rol_router_result",
    status,
    woonplaats: place.name,
    gemeente: m.name,
    gemeentecode: m.code,
    provincie: m.province,
    rechtbank: m.court,
    arrondissement: m.arrondissement,
  } as RolRouterResult;
  if (loc) {
    result.kantonlocatie = loc.name;
    result.correspondentieadres = {
      postbus: loc.postalAddress.postbus,
      postcode: loc.postalAddress.postcode,
      plaats: loc.postalAddress.plaats,
    };
    result.bezoekadres = loc.visitingAddress;
  }
  // An IJ name whose I and Y sessions differ has no single deciding letter (see ijSessions).
  result.maatgevende_letter = missing.includes("maatgevende_letter") ? null : name.letter;
  if (roldagen) result.roldagen = roldagen;
  result.disclaimer = DISCLAIMER;
  // The credit lines of the data (CBS, CC BY 4.0, asks for it); per-field sources are in bronnen.
  result.bronvermelding = dataset.credits.slice();
  result.betrouwbaarheid = {
    arrondissement: m.courtConfidence,
    kantonlocatie: m.confidence,
    rolzitting: roldagen ? (loc?.scheduleConfidence ?? null) : null,
  };
  result.bronnen = {
    gemeente: m.source,
    kantonlocatie: loc ? loc.sources.slice() : [],
    rolzitting: roldagen ? (loc?.scheduleNote ?? null) : null,
  };
  result.ontbrekend = missing;
  result.opmerkingen = opmerkingen;
  result.data_versie = dataset.version;
  return result;
}

function inRange(letter: string, session: Session): boolean {
  return session.letters !== null && letter >= session.letters.from && letter <= session.letters.to;
}

const slotOf = (x: Session) => (x.time === null ? x.weekday : `${x.weekday} ${x.time}`);
const slotsOf = (sessions: readonly Session[]) => [...new Set(sessions.map(slotOf))];

/**
 * A name starting with the digraph IJ: the sources do not say whether a court files it under I or
 * under Y (decision rol-router-letter-rules). Where both letters lead to the same rolzitting that
 * does not matter; where they differ, both rolzittingen are given and the letter counts as missing,
 * so nothing is guessed (status `incomplete`).
 */
function ijSessions(
  loc: KantonLocation,
  underI: Session[],
  missing: Missing[],
  opmerkingen: string[],
): Session[] {
  const underY = loc.sessions.filter((x) => inRange("Y", x));
  const slotsI = slotsOf(underI);
  const slotsY = slotsOf(underY);
  if (slotsI.length === slotsY.length && slotsI.every((slot) => slotsY.includes(slot))) {
    opmerkingen.push(
      `De naam begint met IJ; in ${loc.name} vallen I en Y op dezelfde rolzitting, dus het maakt niet uit of de rechtbank die onder I of onder Y indeelt.`,
    );
    return underI;
  }
  missing.push("maatgevende_letter");
  const describe = (slots: string[]) => (slots.length > 0 ? slots.join(" en ") : "geen rolzitting");
  opmerkingen.push(
    `De naam begint met IJ; de bronnen zeggen niet of de rechtbank die onder I of onder Y indeelt. In ${loc.name} geeft I ${describe(slotsI)} en Y ${describe(slotsY)}; beide staan vermeld.`,
  );
  return [...underI, ...underY];
}

/** The rolzittingen for this defendant, or undefined with the reason recorded in `missing`. */
function schedule(
  loc: KantonLocation,
  name: NameAnalysis,
  betekening: number | undefined,
  s: ResolvedScheduling,
  missing: Missing[],
  opmerkingen: string[],
): RolRouterRoldag[] | undefined {
  if (loc.sessions.length === 0) {
    missing.push("rolzitting");
    opmerkingen.push(`Geen bron geeft de rolzittingen van kantonlocatie ${loc.name}.`);
    return undefined;
  }
  if (!loc.splitKnown) {
    missing.push("letterverdeling");
    const days = [...new Set(loc.sessions.map((x) => x.weekday))].join(", ");
    opmerkingen.push(
      `Kantonlocatie ${loc.name} houdt rolzittingen op ${days}; welke voor deze gedaagde geldt, is niet bekend.`,
    );
    return undefined;
  }
  const split = loc.sessions.some((x) => x.letters !== null);
  let matching = loc.sessions;
  if (split) {
    if (name.letter === null) {
      missing.push("maatgevende_letter");
      return undefined;
    }
    const letter = name.letter;
    matching = loc.sessions.filter((x) => inRange(letter, x));
    if (name.startsWithIJ) matching = ijSessions(loc, matching, missing, opmerkingen);
    if (matching.length === 0) {
      missing.push("rolzitting");
      opmerkingen.push(`De letterverdeling van ${loc.name} noemt de letter ${letter} niet.`);
      return undefined;
    }
  }
  const seen = new Set<string>();
  const roldagen: RolRouterRoldag[] = [];
  let truncated = false;
  let unchecked = false;
  for (const session of matching) {
    const slot = `${session.weekday} ${session.time}`;
    if (seen.has(slot)) continue;
    seen.add(slot);
    const plan = planWeekday(WEEKDAY_NUMBER[session.weekday], betekening, s);
    truncated ||= plan.truncated;
    unchecked ||= plan.unchecked;
    // The wire object shows the range of the session that holds the letter (Amsterdam's table is
    // stored as several runs on one day; the run containing the letter is the informative one).
    roldagen.push({
      weekdag_naam: session.weekday,
      roltijd: session.time,
      letters: session.letters ? { van: session.letters.from, tot: session.letters.to } : null,
      komende_roldata: plan.komende,
      vroegste_roldatum: plan.vroegste === null ? null : formatDay(plan.vroegste),
    });
  }
  if (roldagen.some((r) => r.roltijd === null)) {
    missing.push("roltijd");
    opmerkingen.push(`Geen bron geeft het aanvangsuur van de rolzitting in ${loc.name}.`);
  }
  if (truncated || unchecked) missing.push("feestdagenkalender");
  if (truncated) {
    opmerkingen.push(
      `Gelijkgestelde feestdagen zijn bekend tot en met ${formatDay(s.knownThrough)}; latere roldata worden niet genoemd.`,
    );
  }
  if (unchecked) {
    opmerkingen.push(
      `Gelijkgestelde feestdagen zijn pas bekend vanaf ${formatDay(s.knownFrom)}; eerdere roldata zijn alleen op de wettelijke feestdagen gecontroleerd.`,
    );
  }
  return roldagen;
}
