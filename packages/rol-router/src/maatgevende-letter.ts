/**
 * Deriving the deciding letter (maatgevende letter) of a defendant's name, which picks the rolzitting
 * at courts that split their roll by letter.
 *
 * The courts' own rules, as recorded in ../shared/data/rol-router/SOURCES.md:
 * - Rotterdam ("Letterverdeling kanton", rechtspraak.nl): the first letter of the family name;
 *   articles and prepositions in front of the name do not count; for a compound name the first
 *   part counts; legal-form words (nv, bv, cv, stichting, vereniging, …) do not count; with several
 *   defendants the name that comes first alphabetically counts; heirs summoned collectively: the
 *   deceased's name; a legal representative: the name of the person represented.
 * - Amsterdam ("Kantonzaken", rechtspraak.nl): the first letter of the surname; words such as N.V.,
 *   B.V., vennootschap onder firma do not count (the rest of that list was cut off in the copy).
 *
 * The word lists below implement those rules; where a list goes beyond the examples in the sources
 * (further legal forms, foreign prepositions, titles, initials) it is this package's reading of
 * "articles, prepositions and legal-form words", recorded in docs/decisions/rol-router-letter-rules.md.
 */

/** Legal-form phrases, removed wherever they occur (normalised spelling). */
const LEGAL_FORM_PHRASES = [
  "besloten vennootschap met beperkte aansprakelijkheid",
  "naamloze vennootschap",
  "besloten vennootschap",
  "commanditaire vennootschap",
  "vennootschap onder firma",
  "cooperatieve vereniging",
  "onderlinge waarborgmaatschappij",
  "met beperkte aansprakelijkheid",
  "met uitgesloten aansprakelijkheid",
  "in oprichting",
];

/** Single legal-form words, compared without dots (`B.V.` → `bv`). */
const LEGAL_FORMS = new Set([
  "bv",
  "nv",
  "vof",
  "cv",
  "io",
  "ua",
  "ba",
  "wa",
  "stichting",
  "vereniging",
  "cooperatie",
  "maatschap",
  "eenmanszaak",
  "firma",
  "fa",
  "gmbh",
  "ltd",
  "limited",
  "llc",
  "inc",
  "plc",
  "bvba",
  "sarl",
  "sa",
  "ag",
]);

/**
 * Articles and prepositions that can stand in front of a Dutch family name or a company name
 * (Rotterdam rule: they do not count). Compared without apostrophes: `'t` → `t`, `'s` → `s`.
 */
const INFIXES = new Set([
  "van",
  "de",
  "der",
  "den",
  "het",
  "een",
  "t",
  "s",
  "te",
  "ten",
  "ter",
  "tot",
  "in",
  "op",
  "aan",
  "bij",
  "uit",
  "uijt",
  "onder",
  "over",
  "voor",
  "vd",
  "vander",
  "vanden",
  "d",
  "l",
  "la",
  "le",
  "les",
  "du",
  "des",
  "del",
  "della",
  "di",
  "da",
  "das",
  "dos",
  "von",
  "vom",
  "zu",
  "zum",
  "zur",
  "the",
]);

/**
 * Titles, forms of address and words for heirs, which stand before the name and do not count.
 * `heer` is not here: it is a form of address only in `de heer X` (see {@link analyseName}), and
 * otherwise a surname (`De Heer`, `Heer`).
 */
const TITLES = new Set([
  "dhr",
  "mevr",
  "mevrouw",
  "mw",
  "mej",
  "meneer",
  "mr",
  "mrs",
  "ms",
  "dr",
  "drs",
  "ir",
  "ing",
  "prof",
  "fam",
  "familie",
  "wed",
  "weduwe",
  "erven",
  "erfgenamen",
  "gezamenlijke",
  "wijlen",
  "nalatenschap",
]);

/** Words after which a trade name follows; the name before them is the defendant. */
const TRADE_NAME_MARKER =
  /\s(?:h\.?\s?o\.?\s?d\.?\s?n\.?|handelend onder de naam|handelende onder de naam)(?:\s|$)/;

/**
 * How a name was read: the letter, the word it came from, and the words skipped before it.
 *
 * @example
 * const a: NameAnalysis = { letter: "B", decidingWord: "berg", skipped: ["van", "den"], startsWithIJ: false };
 */
export interface NameAnalysis {
  /** `A`–`Z`, or null when no word of the name starts with a letter. */
  letter: string | null;
  /** The word the letter was taken from (normalised), or null. */
  decidingWord: string | null;
  /** Words skipped in front of it (normalised). */
  skipped: string[];
  /**
   * True when the deciding word starts with the Dutch digraph IJ. The sources do not say whether a
   * court files IJ under I or under Y; the letter returned is I (the first letter, as the rule says),
   * and the lookup lists both rolzittingen where I and Y differ.
   */
  startsWithIJ: boolean;
}

const NON_ASCII = /[^\x20-\x7e]/;

function fold(text: string): string {
  // NFKD is costly; plain ASCII names (the usual case) need only lower-casing.
  if (!NON_ASCII.test(text))
    return text.includes("`") ? text.toLowerCase().replace(/`/g, "'") : text.toLowerCase();
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(UNDECOMPOSED, (c) => ASCII_LETTER[c] ?? c);
}

/**
 * Letters that NFKD leaves alone (they are letters of their own, not a base letter with a mark),
 * spelled the way they are alphabetised in Dutch registers: `Ørsted` under O, `Łukasz` under L.
 */
const ASCII_LETTER: Readonly<Record<string, string>> = {
  ø: "o",
  æ: "ae",
  œ: "oe",
  ł: "l",
  ß: "ss",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
  ŋ: "n",
};
const UNDECOMPOSED = /[øæœłßđðþıħŧŋ]/g;

/** Cheap pre-check: every legal-form phrase contains one of these words. */
const PHRASE_HINT = /vennootschap|vereniging|waarborg|aansprakelijk|oprichting/;
const SEPARATORS = /[\s,;:()[\]{}&+/"]+/;
const ELIDED_ARTICLE = /^('[st])-?(.+)$/;
const ELIDED_PREPOSITION = /^([dl]')(.+)$/;

function tokenise(name: string): { tokens: string[]; company: boolean } {
  let text = fold(name);
  const marker = text.includes("h") ? TRADE_NAME_MARKER.exec(` ${text} `) : null;
  if (marker) text = ` ${text} `.slice(0, marker.index);
  let company = false;
  if (PHRASE_HINT.test(text)) {
    text = ` ${text} `;
    for (const phrase of LEGAL_FORM_PHRASES) {
      const parts = text.split(` ${phrase} `);
      if (parts.length > 1) company = true;
      text = parts.join(" ");
    }
  }
  const tokens: string[] = [];
  for (const raw of text.split(SEPARATORS)) {
    if (raw === "") continue;
    // 's-Gravesande, 't-Hart, d'Ancona, l'Oréal: the article is a separate word.
    const elided = raw.includes("'") ? (ELIDED_ARTICLE.exec(raw) ?? ELIDED_PREPOSITION.exec(raw)) : null;
    if (elided?.[1] && elided[2]) tokens.push(elided[1], elided[2]);
    else tokens.push(raw);
  }
  if (!company) company = tokens.some((t) => LEGAL_FORMS.has(bareWord(t)));
  return { tokens, company };
}

/** A word without dots and apostrophes: `B.V.` → `bv`, `'t` → `t`. */
function bareWord(token: string): string {
  return token.includes(".") || token.includes("'") ? token.replace(/[.']/g, "") : token;
}

const INITIALS = /^(?:[a-z]\.)+[a-z]?\.?$/;
const HAS_ALNUM = /[a-z0-9]/;

/**
 * Reads a defendant's name the way the courts' letter rules do. See {@link deriveMaatgevendeLetter}.
 *
 * @example
 * analyseName("Mr. J.P. van den Berg"); // { letter: "B", decidingWord: "berg", skipped: ["mr.", "j.p.", "van", "den"], startsWithIJ: false }
 */
export function analyseName(naam: string): NameAnalysis {
  const { tokens, company } = tokenise(naam);
  const skipped: string[] = [];
  // A title counts as one only when a word that can be the name follows it (not a legal form):
  // `De Heer B.V.` is the company De Heer.
  let lastNameWord = -1;
  for (let i = tokens.length - 1; i >= 0 && lastNameWord < 0; i--) {
    const bare = bareWord(tokens[i] as string);
    if (HAS_ALNUM.test(bare) && !LEGAL_FORMS.has(bare)) lastNameWord = i;
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const bare = bareWord(token);
    const more = i < tokens.length - 1;
    if (!HAS_ALNUM.test(bare) || LEGAL_FORMS.has(bare) || (i < lastNameWord && isTitle(bare, tokens, i))) {
      skipped.push(token);
      continue;
    }
    if (INFIXES.has(bare)) {
      skipped.push(token);
      continue;
    }
    // Initials (`J.`, `J.P.`, or a lone letter before the surname) are not the surname. In a
    // company name (one with a legal form) letters with dots are the name itself: `A.S.R. N.V.`.
    if (more && !company && ((bare.length === 1 && bare >= "a" && bare <= "z") || INITIALS.test(token))) {
      skipped.push(token);
      continue;
    }
    return result(bare, skipped);
  }
  // Nothing but skippable words: a name such as "Van", "Ter" or "Van der" is itself the surname.
  // The first word that is not a legal form (and has a letter or digit) is taken, as the first part
  // of a compound name counts (Rotterdam rule); a title in front of it still does not count
  // (`Mr. Van der` → V), unless there is nothing else (`Mr. B.V.` → M).
  const fallback = (allowTitle: boolean) =>
    skipped.findIndex((token, i) => {
      const bare = bareWord(token);
      return HAS_ALNUM.test(bare) && !LEGAL_FORMS.has(bare) && (allowTitle || !isTitle(bare, skipped, i));
    });
  let at = fallback(false);
  if (at < 0) at = fallback(true);
  if (at >= 0) return result(bareWord(skipped[at] as string), skipped.slice(0, at));
  return { letter: null, decidingWord: null, skipped, startsWithIJ: false };
}

/**
 * A title or form of address at position `i`, which the caller only asks when another word follows
 * (a lone `Dhr.` or `Erven` is read as the name itself). `heer` counts only after `de`, as in
 * `de heer Jansen`; `De Heer` alone is the family name De Heer (letter H: the article does not count).
 */
function isTitle(bare: string, tokens: readonly string[], i: number): boolean {
  if (bare === "heer") return i > 0 && bareWord(tokens[i - 1] as string) === "de";
  return TITLES.has(bare);
}

function result(word: string, skipped: string[]): NameAnalysis {
  const first = word.charAt(0);
  const letter = first >= "a" && first <= "z" ? first.toUpperCase() : null;
  return { letter, decidingWord: word, skipped, startsWithIJ: word.startsWith("ij") };
}

/**
 * The deciding letter of a defendant's surname or company name: `A`–`Z`, or null when the name has
 * no word starting with a letter (for example `3M Nederland B.V.`: the sources give no rule for digits).
 *
 * Skipped in front of the name: articles and prepositions (`van`, `de`, `van der`, `'t`, `in 't`,
 * `d'`, …), legal forms anywhere (`B.V.`, `N.V.`, `V.O.F.`, `C.V.`, `Stichting`, `vennootschap onder
 * firma`, …), titles and forms of address when a name follows them (`mr.`, `dhr.`, `mevrouw`,
 * `de heer`; but `De Heer` alone is the surname, H), words for heirs (`erven`,
 * `wijlen`) and initials (except in a company name, recognised by its legal form, where `A.S.R.`
 * is the name itself). A trade name after `h.o.d.n.` is ignored. Case, diacritics and spacing
 * do not matter.
 *
 * @example
 * deriveMaatgevendeLetter("van der Berg");              // "B"
 * deriveMaatgevendeLetter("'t Hart");                   // "H"
 * deriveMaatgevendeLetter("B.V. De Gouden Leeuw");      // "G"
 * deriveMaatgevendeLetter("Jansen-de Vries");           // "J"
 * deriveMaatgevendeLetter("Dhr. De Heer");              // "H"
 * deriveMaatgevendeLetter("Stichting Woonbron");        // "W"
 * deriveMaatgevendeLetter("A.S.R. Schadeverzekering N.V."); // "A"
 * deriveMaatgevendeLetter("J. Pietersen h.o.d.n. Bakkerij Zon"); // "P"
 */
export function deriveMaatgevendeLetter(naam: string): string | null {
  return analyseName(naam).letter;
}

/**
 * The deciding letter when several defendants are summoned together: the name that comes first
 * alphabetically counts (Rotterdam rule, SOURCES.md), i.e. the smallest of their letters.
 *
 * @example
 * deriveMaatgevendeLetterForDefendants(["de Vries", "van Dam"]); // "D"
 */
export function deriveMaatgevendeLetterForDefendants(namen: readonly string[]): string | null {
  let best: string | null = null;
  for (const naam of namen) {
    const letter = deriveMaatgevendeLetter(naam);
    if (letter !== null && (best === null || letter < best)) best = letter;
  }
  return best;
}
