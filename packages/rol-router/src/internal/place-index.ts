import type { Municipality, RolRouterDataset } from "../dataset.js";
import { normalisePlaceName } from "../normalise-place-name.js";
import { boundedLevenshtein } from "./levenshtein.js";
import { baseWithoutQualifier, PLACE_ALIASES, PROVINCE_ALIASES } from "./place-qualifiers.js";

/** One woonplaats of the dataset. */
export interface PlaceRef {
  name: string;
  code: string;
  municipality: Municipality;
  /** The normalised BAG name. */
  key: string;
}

/** Lookup structures built once per dataset. */
export interface PlaceIndex {
  /** normalised full BAG name → places */
  full: Map<string, PlaceRef[]>;
  /** normalised name without qualifier → places */
  base: Map<string, PlaceRef[]>;
  /** normalised municipality names, codes and aliases → municipalities */
  municipalities: Map<string, Municipality[]>;
  /** every key of `full` and `base`, for suggestions */
  keys: string[];
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/** Builds the index of a dataset (about 2,500 places; a few milliseconds). */
export function buildPlaceIndex(dataset: RolRouterDataset): PlaceIndex {
  const full = new Map<string, PlaceRef[]>();
  const base = new Map<string, PlaceRef[]>();
  const municipalities = new Map<string, Municipality[]>();
  for (const m of dataset.municipalities) {
    push(municipalities, normalisePlaceName(m.name), m);
    // CBS writes `Bergen (NH.)`; PDOK and people write `Bergen (NH)` or just `Bergen`.
    const plain = m.name.replace(/\s*\([^)]*\)$/, "");
    push(municipalities, normalisePlaceName(plain), m);
    push(municipalities, m.code.toLowerCase(), m);
    push(municipalities, m.code.slice(2), m);
    for (const [name, code] of m.places) {
      const ref: PlaceRef = { name, code, municipality: m, key: normalisePlaceName(name) };
      push(full, ref.key, ref);
      const stripped = baseWithoutQualifier(name);
      if (stripped !== undefined) push(base, normalisePlaceName(stripped), ref);
    }
  }
  for (const [alias, target] of Object.entries(PLACE_ALIASES)) {
    for (const m of municipalities.get(target) ?? []) push(municipalities, alias, m);
  }
  const keys = [...new Set([...full.keys(), ...base.keys()])].sort();
  return { full, base, municipalities, keys };
}

function candidatesFor(index: PlaceIndex, key: string): PlaceRef[] {
  const target = PLACE_ALIASES[key] ?? key;
  const a = index.full.get(target);
  const b = index.base.get(target);
  if (!b) return a ?? [];
  if (!a) return b;
  return [...a, ...b.filter((r) => !a.includes(r))];
}

/** Resolves a province as typed (name, everyday name or abbreviation) to the data's name. */
export function resolveProvince(typed: string): string | undefined {
  return PROVINCE_ALIASES[normalisePlaceName(typed)];
}

/** Outcome of resolving a typed place name. */
export type PlaceResolution =
  | { kind: "found"; place: PlaceRef }
  | { kind: "ambiguous"; options: PlaceRef[] }
  | { kind: "conflict"; candidates: PlaceRef[] }
  | { kind: "not_found"; suggestions: PlaceRef[] };

const collator = new Intl.Collator("nl");
const byName = (x: PlaceRef, y: PlaceRef) =>
  collator.compare(x.name, y.name) || collator.compare(x.municipality.name, y.municipality.name);

/**
 * Resolves a typed woonplaats, optionally narrowed by municipality and province.
 *
 * - exact (normalised) BAG name, or the name without its BAG qualifier, or an everyday alias;
 * - failing that, a trailing province or municipality word typed by the user (`Hengelo Gelderland`);
 * - several municipalities left after the filters: ambiguous; one: found;
 * - candidates exist but none lies in the given municipality/province: conflict (the caller decides);
 * - nothing: not found, with the closest names when they are close.
 */
export function resolvePlace(
  index: PlaceIndex,
  woonplaats: string,
  gemeente: string | undefined,
  provincie: string | undefined,
): PlaceResolution {
  const key = normalisePlaceName(woonplaats);
  let candidates = candidatesFor(index, key);
  if (candidates.length === 0) candidates = trailingQualifierCandidates(index, key);
  if (candidates.length === 0) return { kind: "not_found", suggestions: suggest(index, key) };

  if (candidates.length === 1 && gemeente === undefined && provincie === undefined) {
    return { kind: "found", place: candidates[0] as PlaceRef };
  }
  let filtered = candidates;
  if (gemeente !== undefined) {
    const wanted = index.municipalities.get(normalisePlaceName(gemeente)) ?? [];
    filtered = filtered.filter((r) => wanted.includes(r.municipality));
  }
  if (provincie !== undefined) {
    const wanted = resolveProvince(provincie);
    filtered = filtered.filter((r) => r.municipality.province === wanted);
  }
  if (filtered.length === 0) return { kind: "conflict", candidates: [...candidates].sort(byName) };
  const first = filtered[0] as PlaceRef;
  if (filtered.every((r) => r.municipality === first.municipality)) {
    // One municipality: the court follows from it. Prefer the exact BAG name when several of its
    // woonplaatsen share the base name.
    const target = PLACE_ALIASES[key] ?? key;
    const exact = filtered.find((r) => r.key === target);
    return { kind: "found", place: exact ?? first };
  }
  return { kind: "ambiguous", options: [...filtered].sort(byName) };
}

function trailingQualifierCandidates(index: PlaceIndex, key: string): PlaceRef[] {
  const tokens = key.split(" ");
  for (let k = 1; k < tokens.length && k <= 3; k++) {
    const head = tokens.slice(0, tokens.length - k).join(" ");
    const tail = tokens.slice(tokens.length - k).join(" ");
    const province = PROVINCE_ALIASES[tail];
    const municipalities = index.municipalities.get(tail);
    if (province === undefined && municipalities === undefined) continue;
    const found = candidatesFor(index, head).filter(
      (r) => r.municipality.province === province || (municipalities?.includes(r.municipality) ?? false),
    );
    if (found.length > 0) return found;
  }
  return [];
}

/** Largest edit distance still offered as a suggestion, by length of what was typed. */
function maxDistance(length: number): number {
  if (length <= 4) return 1;
  if (length <= 9) return 2;
  return 3;
}

const MAX_SUGGESTIONS = 5;

function suggest(index: PlaceIndex, key: string): PlaceRef[] {
  if (key.length < 3) return [];
  const max = maxDistance(key.length);
  const scored: { distance: number; ref: PlaceRef }[] = [];
  for (const k of index.keys) {
    const distance = boundedLevenshtein(key, k, max);
    if (distance > max) continue;
    for (const ref of candidatesFor(index, k)) {
      if (!scored.some((s) => s.ref === ref)) scored.push({ distance, ref });
    }
  }
  scored.sort((x, y) => x.distance - y.distance || byName(x.ref, y.ref));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.ref);
}
