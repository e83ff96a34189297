import { findAmounts } from "../amounts.js";

/** What the rules checker reads from a document's text. */
export interface DocumentFacts {
  /** The grand total near a label such as "Totaal", "Te betalen", "Total due", in cents. */
  totalCents: number | null;
  /** Invoice numbers after a label such as "Factuurnummer" or "Invoice no.", normalised. */
  invoiceNumbers: string[];
  /** VAT identification numbers, normalised (upper case, no spaces or dots). */
  vatNumbers: string[];
  /** Dutch postcodes, normalised as "1234AB". */
  postcodes: string[];
  /** Signs of a 14-day letter (art. 6:96 lid 6 BW). */
  wik: WikLetterSigns;
}

/** The parts of a 14-day letter the checks look for. */
export interface WikLetterSigns {
  /** Longest payment term in days named in the text, or null when none is named. */
  termDays: number | null;
  /** The letter says what happens when the debtor does not pay. */
  namesConsequence: boolean;
  /** The letter mentions collection costs at all. */
  mentionsCosts: boolean;
  /** The amount stated for the collection costs, in cents. */
  costsCents: number | null;
  /** Words that mark a reminder: aanmaning, herinnering, ingebrekestelling, sommatie, reminder. */
  reminderWord: boolean;
}

// Labels of a grand total, strongest first. A label in the first group wins over a plain "Totaal".
const TOTAL_STRONG =
  /\b(totaal\s+te\s+betalen|nog\s+te\s+betalen|te\s+betalen|totaalbedrag|factuurbedrag|openstaand\s+bedrag|totaal\s+incl\.?|totaal\s+inclusief|total\s+due|amount\s+due|balance\s+due|grand\s+total|invoice\s+total|total\s+amount|total\s+incl\.?|total\s+including)\b/i;
const TOTAL_WEAK = /\b(totaal|total)\b/i;
// Lines that carry a total that is not the amount owed.
const NOT_GRAND_TOTAL = /sub\s?-?tota|\bexcl\b|\bexcl\.|exclusief|exclusive|\bnetto\b|\bnet\b/i;
const TAX_WORD = /\b(btw|vat|tax)\b/i;
const INCLUDES = /\bincl\b|\bincl\.|inclusief|including/i;

const INVOICE_LABEL =
  /\b(?:factuur\s?-?(?:nummer|nr\.?|no\.?)|invoice\s?(?:number|no\.?|nr\.?|#))\s*[:#.]?\s*([A-Za-z0-9][A-Za-z0-9\-/._]*[A-Za-z0-9]|[A-Za-z0-9])/gi;

// A Dutch VAT identification number (btw-id): NL, nine digits, B, two digits.
const NL_VAT = /\bNL[\s.]?\d{4}[\s.]?\d{2}[\s.]?\d{3}[\s.]?B[\s.]?\d{2}\b/gi;
// Any EU VAT number after a label such as "BTW-nummer" or "VAT number".
const VAT_LABEL =
  /\b(?:btw[-\s]?(?:nummer|nr\.?|id|identificatienummer)|vat\s?(?:number|no\.?|id|reg(?:istration)?\.?\s?(?:no\.?|number)?))\s*[:.]?\s*([A-Z]{2}[ .]?[0-9A-Z][0-9A-Z .]{6,16}[0-9A-Z])(?![0-9A-Z])/gi;

// Dutch postcode: four digits (not starting with 0), optional space, two capital letters.
const POSTCODE = /\b([1-9]\d{3})\s?([A-Z]{2})\b/g;

const TERM =
  /\b(\d{1,3}|veertien|twee\s+weken|fourteen|two\s+weeks)\s*(?:\(\s*[a-z]+\s*\)\s*)?(dagen|days|weken|weeks)?\b/gi;
const CONSEQUENCE =
  /(betaalt\s+u\s+niet|indien\s+(?:u\s+)?(?:niet|het\s+bedrag\s+niet)|als\s+u\s+niet|wanneer\s+u\s+niet|bij\s+niet[-\s]?(?:tijdige\s+)?betaling|blijft\s+(?:de\s+)?betaling\s+uit|uit\s+handen|incassobureau|gerechtelijke\s+(?:stappen|procedure|maatregelen)|deurwaarder|if\s+you\s+do\s+not\s+pay|if\s+payment\s+is\s+not|failing\s+payment|in\s+default\s+of\s+payment)/i;
const COSTS =
  /(buitengerechtelijke\s+(?:incasso)?kosten|incassokosten|collection\s+(?:costs|charges|fees)|extrajudicial\s+collection)/i;
const REMINDER =
  /(aanmaning|herinnering|ingebrekestelling|sommatie|veertiendagenbrief|14[-\s]dagenbrief|reminder|final\s+notice)/i;

/**
 * Reads the facts the rules checker compares from a document's text. Conservative on purpose:
 * a fact it is not sure of is left out, because a wrong warning costs a handler more time than a
 * missing one.
 */
export function readDocumentFacts(text: string): DocumentFacts {
  const lines = text
    .split(/\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && l !== "\f");
  return {
    totalCents: findTotal(lines),
    invoiceNumbers: unique([...text.matchAll(INVOICE_LABEL)].map((m) => normaliseReference(m[1] ?? ""))),
    vatNumbers: findVatNumbers(text),
    postcodes: unique([...text.matchAll(POSTCODE)].map((m) => `${m[1]}${m[2]}`)),
    wik: readWikSigns(lines),
  };
}

function findTotal(lines: string[]): number | null {
  let strong: number | null = null;
  let weak: number | null = null;
  lines.forEach((line, i) => {
    const isStrong = TOTAL_STRONG.test(line);
    if (!isStrong && !TOTAL_WEAK.test(line)) return;
    if (NOT_GRAND_TOTAL.test(line)) return;
    if (TAX_WORD.test(line) && !INCLUDES.test(line)) return;
    const label = (isStrong ? TOTAL_STRONG : TOTAL_WEAK).exec(line);
    const after = line.slice((label?.index ?? 0) + (label?.[0].length ?? 0));
    // The amount follows the label on the same line, or, in a two-column layout that pdf.js split,
    // stands alone on the next line.
    let amount = findAmounts(after)[0]?.cents ?? null;
    if (amount === null) {
      const next = lines[i + 1] ?? "";
      const candidates = findAmounts(next);
      if (candidates.length === 1 && /^[\s€EURO\d.,'-]+$/i.test(next)) amount = candidates[0]?.cents ?? null;
    }
    if (amount === null) return;
    // The last total wins within its group: the grand total usually closes the document.
    if (isStrong) strong = amount;
    else weak = amount;
  });
  return strong ?? weak;
}

function findVatNumbers(text: string): string[] {
  const found = [...text.matchAll(NL_VAT)].map((m) => normaliseReference(m[0]));
  for (const m of text.matchAll(VAT_LABEL)) {
    const candidate = normaliseReference(m[1] ?? "");
    if (/^[A-Z]{2}[0-9A-Z]{8,12}$/.test(candidate) && /\d{6}/.test(candidate)) found.push(candidate);
  }
  return unique(found);
}

function readWikSigns(lines: string[]): WikLetterSigns {
  const text = lines.join("\n");
  let termDays: number | null = null;
  for (const m of text.matchAll(TERM)) {
    const days = termInDays(m[1] ?? "", m[2] ?? "");
    if (days !== null) termDays = Math.max(termDays ?? 0, days);
  }
  let costsCents: number | null = null;
  lines.forEach((line, i) => {
    if (costsCents !== null || !COSTS.test(line)) return;
    const here = findAmounts(line.slice(COSTS.exec(line)?.index ?? 0));
    const next = findAmounts(lines[i + 1] ?? "");
    costsCents = here[0]?.cents ?? (next.length === 1 ? (next[0]?.cents ?? null) : null);
  });
  return {
    termDays,
    namesConsequence: CONSEQUENCE.test(text),
    mentionsCosts: COSTS.test(text),
    costsCents,
    reminderWord: REMINDER.test(text),
  };
}

function termInDays(count: string, unit: string): number | null {
  const c = count.toLowerCase().replace(/\s+/g, " ");
  if (c === "veertien" || c === "fourteen") return unit === "" || /dagen|days/i.test(unit) ? 14 : null;
  if (c === "twee weken" || c === "two weeks") return 14;
  if (!/^\d+$/.test(c) || unit === "") return null;
  const n = Number(c);
  if (/dagen|days/i.test(unit)) return n;
  if (/weken|weeks/i.test(unit)) return n * 7;
  return null;
}

/**
 * Normalises an invoice or VAT number for comparison: upper case, without spaces and dots, so
 * "f-2026 001" and "F-2026001" compare equal but "F-1" and "F-10" do not.
 */
export function normaliseReference(value: string): string {
  return value.toUpperCase().replace(/[\s.]/g, "");
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}
