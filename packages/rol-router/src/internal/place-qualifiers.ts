/**
 * How a BAG woonplaats name carries a qualifier that a user will usually leave out
 * (WOONPLAATSEN-SOURCES.md, "Ambiguous woonplaats names", list B): a bracketed suffix
 * (`Hengelo (Gld)`), a trailing province or municipality abbreviation (`Bergen L`, `Bavel AC`),
 * `gem X` / `gem. X`, or a municipality name in a few listed cases (`Botlek Rotterdam`).
 */
const TRAILING_QUALIFIERS = new Set(["L", "NB", "Gld", "Gn", "GN", "Ut", "NH", "AC"]);

/** Names whose last word is their municipality, listed in WOONPLAATSEN-SOURCES.md list B. */
const MUNICIPALITY_SUFFIXED = new Set([
  "Nieuwlande Coevorden",
  "'t Loo Oldebroek",
  "Botlek Rotterdam",
  "Europoort Rotterdam",
  "Hoogvliet Rotterdam",
  "Maasvlakte Rotterdam",
  "Pernis Rotterdam",
  "Vondelingenplaat Rotterdam",
]);

/**
 * The BAG name without its qualifier, or undefined when it has none.
 *
 * @example
 * baseWithoutQualifier("Hengelo (Gld)"); // "Hengelo"
 * baseWithoutQualifier("Spaarndam gem. Haarlem"); // "Spaarndam"
 * baseWithoutQualifier("Hengelo"); // undefined
 */
export function baseWithoutQualifier(bagName: string): string | undefined {
  const bracket = /^(.+?)\s*\([^)]*\)$/.exec(bagName);
  if (bracket?.[1]) return bracket[1];
  const gem = /^(.+?)\s+gem\.?\s+\S.*$/.exec(bagName);
  if (gem?.[1]) return gem[1];
  const space = bagName.lastIndexOf(" ");
  if (space > 0) {
    const last = bagName.slice(space + 1);
    if (TRAILING_QUALIFIERS.has(last) || MUNICIPALITY_SUFFIXED.has(bagName)) return bagName.slice(0, space);
  }
  return undefined;
}

/**
 * Province names and the abbreviations BAG and CBS use in qualifiers (`Gld`, `NH.`, `(L.)`, `Gn`, `Ut`,
 * `(O.)`, `(ZH.)`, `(Z.)`), normalised, mapped to the province name used in the data. `Friesland`
 * is the everyday name of `Fryslân`.
 */
export const PROVINCE_ALIASES: Record<string, string> = Object.assign(Object.create(null), {
  drenthe: "Drenthe",
  dr: "Drenthe",
  flevoland: "Flevoland",
  fl: "Flevoland",
  fryslan: "Fryslân",
  friesland: "Fryslân",
  fr: "Fryslân",
  gelderland: "Gelderland",
  gld: "Gelderland",
  gl: "Gelderland",
  groningen: "Groningen",
  gn: "Groningen",
  gr: "Groningen",
  limburg: "Limburg",
  l: "Limburg",
  lb: "Limburg",
  li: "Limburg",
  "noord brabant": "Noord-Brabant",
  nb: "Noord-Brabant",
  "noord holland": "Noord-Holland",
  nh: "Noord-Holland",
  overijssel: "Overijssel",
  o: "Overijssel",
  ov: "Overijssel",
  utrecht: "Utrecht",
  ut: "Utrecht",
  u: "Utrecht",
  zeeland: "Zeeland",
  z: "Zeeland",
  zl: "Zeeland",
  "zuid holland": "Zuid-Holland",
  zh: "Zuid-Holland",
});

/**
 * Everyday names of places whose BAG name differs (WOONPLAATSEN-SOURCES.md, gaps 3; the issue names
 * "Den Haag" / "'s-Gravenhage" and "Den Bosch" / "'s-Hertogenbosch"). Keys and values normalised.
 */
export const PLACE_ALIASES: Record<string, string> = Object.assign(Object.create(null), {
  "den haag": "s gravenhage",
  "den bosch": "s hertogenbosch",
});
