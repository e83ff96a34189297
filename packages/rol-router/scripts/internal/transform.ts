import { createHash } from "node:crypto";
import type {
  Confidence,
  KantonLocation,
  Municipality,
  RolRouterDataset,
  Session,
  Weekdag,
} from "../../src/dataset.js";
import { parseCsv } from "./csv.js";
import { SCHEDULE_ASSESSMENT } from "./schedule-assessment.js";

/** The four input files, as text, keyed by their names in ../shared/data/rol-router. */
export interface RawInputs {
  "woonplaatsen.csv": string;
  "gemeenten.csv": string;
  "gemeente-kanton.csv": string;
  "courts.json": string;
}

/** Reference date of CBS 86312NED "Woonplaatsen in Nederland 2026" (WOONPLAATSEN-SOURCES.md). */
const REFERENCE_DATE = "2026-01-01";

const CREDITS = [
  "Woonplaatsen en gemeenten: CBS, Woonplaatsen in Nederland 2026 (86312NED), CC BY 4.0; provincie-indeling: Kadaster/PDOK Bestuurlijke Gebieden (CC BY 4.0). Hergebruik betekent niet dat CBS dit product onderschrijft.",
  "Arrondissementen: Wet op de rechterlijke indeling (BWBR0002080), gecontroleerd met de indeling in veiligheidsregio's.",
  "Kantonlocaties: zaaksverdelingsreglementen rechtbank Amsterdam (Stcrt. 2016, 276) en Limburg (Stcrt. 2013, 36469); elders de gebiedsindeling kantonzaken tot 1-1-2013 (bijlage Besluit nevenvestigings- en nevenzittingsplaatsen, BWBR0013129), betrouwbaarheid laag.",
  "Adressen en rolzittingen: reglementen in de Staatscourant en pagina's van rechtspraak.nl, per locatie vermeld.",
];

const WEEKDAYS = new Set<string>(["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag"]);
const LEVELS = new Set<string>(["hoog", "middel", "laag"]);

interface CourtsJsonLocation {
  naam: string;
  bezoekadres: string | null;
  correspondentieadres: { postbus: string | null; postcode: string | null; plaats: string | null };
  rolzittingen: { weekdag: string; roltijd: string | null; letters: { van: string; tot: string } | null }[];
  sources: string[];
  confidence: string;
}
interface CourtsJsonCourt {
  rechtbank: string;
  arrondissement: string;
  kantonlocaties: CourtsJsonLocation[];
}

function fail(message: string): never {
  throw new Error(`build-data: ${message}`);
}

function toSession(loc: string, raw: CourtsJsonLocation["rolzittingen"][number]): Session {
  if (!WEEKDAYS.has(raw.weekdag)) fail(`${loc}: unknown weekday ${raw.weekdag}`);
  if (raw.roltijd !== null && !/^([01]\d|2[0-3]):[0-5]\d$/.test(raw.roltijd))
    fail(`${loc}: bad time ${raw.roltijd}`);
  let letters: Session["letters"] = null;
  if (raw.letters) {
    const { van, tot } = raw.letters;
    if (!/^[A-Z]$/.test(van) || !/^[A-Z]$/.test(tot) || van > tot)
      fail(`${loc}: bad letter range ${van}-${tot}`);
    letters = { from: van, to: tot };
  }
  return { weekday: raw.weekdag as Weekdag, time: raw.roltijd, letters };
}

function checkLetterRanges(loc: string, sessions: Session[]): void {
  // A letter may appear in several sessions only if they are the same day and time (Amsterdam's
  // table is split into contiguous runs, SOURCES.md "courts.json"); otherwise routing is ambiguous.
  const seen = new Map<string, string>();
  for (const s of sessions) {
    if (!s.letters) continue;
    for (let c = s.letters.from.charCodeAt(0); c <= s.letters.to.charCodeAt(0); c++) {
      const letter = String.fromCharCode(c);
      const slot = `${s.weekday} ${s.time}`;
      const before = seen.get(letter);
      if (before !== undefined && before !== slot) fail(`${loc}: letter ${letter} in two sessions`);
      seen.set(letter, slot);
    }
  }
}

/**
 * Turns the reference files into the package's dataset, checking referential integrity on the way.
 * Throws on any inconsistency, so a broken data update never produces a bundle.
 *
 * @example
 * const dataset = transform(readInputs("../shared/data/rol-router"));
 */
export function transform(
  inputs: RawInputs,
  assessments: Record<string, { confidence: Confidence; note: string }> = SCHEDULE_ASSESSMENT,
): RolRouterDataset {
  const woonplaatsen = parseCsv(inputs["woonplaatsen.csv"]);
  const gemeenten = parseCsv(inputs["gemeenten.csv"]);
  const kanton = parseCsv(inputs["gemeente-kanton.csv"]);
  const courtsJson = JSON.parse(inputs["courts.json"]) as CourtsJsonCourt[];

  const courts = courtsJson.map((c) => ({ name: c.rechtbank, arrondissement: c.arrondissement }));
  const locations: KantonLocation[] = [];
  const locationCourt = new Map<string, string>();
  for (const court of courtsJson) {
    for (const loc of court.kantonlocaties) {
      if (locationCourt.has(loc.naam)) fail(`location name ${loc.naam} is not unique`);
      locationCourt.set(loc.naam, court.rechtbank);
      const sessions = loc.rolzittingen.map((r) => toSession(loc.naam, r));
      checkLetterRanges(loc.naam, sessions);
      const assessment = assessments[loc.naam];
      if (sessions.length > 0 && !assessment) fail(`${loc.naam} has rolzittingen but no schedule assessment`);
      if (sessions.length === 0 && assessment)
        fail(`${loc.naam} has a schedule assessment but no rolzittingen`);
      locations.push({
        name: loc.naam,
        court: court.rechtbank,
        visitingAddress: loc.bezoekadres,
        postalAddress: {
          postbus: loc.correspondentieadres.postbus,
          postcode: loc.correspondentieadres.postcode,
          plaats: loc.correspondentieadres.plaats,
        },
        sessions,
        // Several sessions without letters: the source lists the days but not who goes where
        // (SOURCES.md, gaps 4: Den Haag). One session without letters serves every letter (Gouda).
        splitKnown: sessions.length <= 1 || sessions.every((s) => s.letters !== null),
        scheduleConfidence: assessment?.confidence ?? null,
        scheduleNote: assessment?.note ?? null,
        note: loc.confidence,
        sources: loc.sources,
      });
    }
  }
  for (const name of Object.keys(assessments)) {
    if (!locationCourt.has(name)) fail(`schedule assessment for unknown location ${name}`);
  }

  const courtByName = new Map(courts.map((c) => [c.name, c]));
  const kantonByCode = new Map<string, Record<string, string>>();
  for (const row of kanton) {
    const code = row.gemeentecode ?? "";
    if (!/^GM\d{4}$/.test(code)) fail(`gemeente-kanton: bad code ${code}`);
    if (kantonByCode.has(code)) fail(`gemeente-kanton: duplicate ${code}`);
    kantonByCode.set(code, row);
  }

  const placesByCode = new Map<string, [string, string][]>();
  const seenPlaceCodes = new Set<string>();
  for (const row of woonplaatsen) {
    const code = `GM${row.gemeentecode}`;
    const wp = row.woonplaatscode ?? "";
    if (!/^\d{4}$/.test(wp)) fail(`woonplaatsen: bad woonplaatscode ${wp}`);
    if (seenPlaceCodes.has(wp)) fail(`woonplaatsen: duplicate woonplaatscode ${wp}`);
    seenPlaceCodes.add(wp);
    const list = placesByCode.get(code) ?? [];
    list.push([row.woonplaats ?? fail("woonplaats without name"), wp]);
    placesByCode.set(code, list);
  }

  const municipalities: Municipality[] = gemeenten.map((g) => {
    const code = `GM${g.gemeentecode}`;
    const k = kantonByCode.get(code) ?? fail(`${code} ${g.gemeente} has no row in gemeente-kanton.csv`);
    if (k.gemeente !== g.gemeente) fail(`${code}: name ${k.gemeente} differs from ${g.gemeente}`);
    const court = courtByName.get(k.rechtbank ?? "") ?? fail(`${code}: unknown court ${k.rechtbank}`);
    if (court.arrondissement !== k.arrondissement) fail(`${code}: arrondissement does not match court`);
    const location = k.kantonlocatie ? k.kantonlocatie : null;
    const confidence = k.confidence ? k.confidence : null;
    if (location !== null && locationCourt.get(location) !== court.name) {
      fail(`${code}: location ${location} is not a location of ${court.name}`);
    }
    if ((location === null) !== (confidence === null))
      fail(`${code}: location and confidence must both be set`);
    if (confidence !== null && !LEVELS.has(confidence)) fail(`${code}: bad confidence ${confidence}`);
    const places = placesByCode.get(code) ?? fail(`${code} has no woonplaatsen`);
    for (const row of woonplaatsen) {
      if (`GM${row.gemeentecode}` === code && row.provincie !== g.provincie)
        fail(`${code}: province mismatch`);
    }
    return {
      code,
      name: g.gemeente ?? fail("gemeente without name"),
      province: g.provincie ?? fail("gemeente without province"),
      court: court.name,
      arrondissement: court.arrondissement,
      // SOURCES.md: the WRI derivation and the independent veiligheidsregio derivation agree for
      // every gemeente marked "[VR-check ok]"; two agreeing derivations rate `hoog`.
      courtConfidence: (k.source ?? "").includes("[VR-check ok]") ? "hoog" : "middel",
      location,
      confidence: confidence as Confidence | null,
      source: k.source ?? "",
      places,
    };
  });
  for (const code of placesByCode.keys()) {
    if (!municipalities.some((m) => m.code === code))
      fail(`woonplaatsen reference unknown municipality ${code}`);
  }
  if (kantonByCode.size !== municipalities.length)
    fail("gemeente-kanton.csv has rows for unknown municipalities");

  const hash = createHash("sha256");
  for (const name of ["woonplaatsen.csv", "gemeenten.csv", "gemeente-kanton.csv", "courts.json"] as const) {
    hash.update(name).update("\0").update(inputs[name]).update("\0");
  }
  return {
    version: `${REFERENCE_DATE}.${hash.digest("hex").slice(0, 12)}`,
    referenceDate: REFERENCE_DATE,
    credits: CREDITS,
    courts,
    locations,
    municipalities,
  };
}

/**
 * Serialises the dataset as a TypeScript module, one record per line so a data update gives a
 * readable diff.
 *
 * @example
 * writeFileSync("src/data/bundle.generated.ts", serialise(dataset));
 */
export function serialise(dataset: RolRouterDataset): string {
  const j = (v: unknown) => JSON.stringify(v);
  const body = [
    "{",
    `"version": ${j(dataset.version)},`,
    `"referenceDate": ${j(dataset.referenceDate)},`,
    `"credits": ${j(dataset.credits)},`,
    '"courts": [',
    dataset.courts.map(j).join(",\n"),
    "],",
    '"locations": [',
    dataset.locations.map(j).join(",\n"),
    "],",
    '"municipalities": [',
    dataset.municipalities.map(j).join(",\n"),
    "]",
    "}",
  ].join("\n");
  // JSON.parse of a string is faster to load than the same object literal (V8 parses JSON in one
  // pass); a template literal keeps one record per line, so data updates still diff well.
  const literal = body.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
  const lines = [
    "// Generated by packages/rol-router/scripts/build-data.ts from ../shared/data/rol-router.",
    "// Do not edit by hand: run `pnpm --filter @incasso/rol-router build:data` instead.",
    "// Woonplaatsen and gemeenten: CBS, Woonplaatsen in Nederland 2026 (86312NED), CC BY 4.0.",
    'import type { RolRouterDataset } from "../dataset.js";',
    "",
    "/**",
    " * The bundled reference data (courts, kanton locations with their rolzittingen, municipalities",
    " * with their woonplaatsen), validated at build time; sources and credits in NOTICE.md of this package.",
    " *",
    " * @example",
    ' * BUNDLED_DATASET.locations.find((l) => l.name === "Gouda")?.sessions[0]?.weekday; // "donderdag"',
    " * createRolRouter({ data: BUNDLED_DATASET }); // the same data lookupRolRouter uses by default",
    " */",
    `export const BUNDLED_DATASET: RolRouterDataset = /* @__PURE__ */ JSON.parse(\`${literal}\`);`,
    "",
  ];
  return lines.join("\n");
}
