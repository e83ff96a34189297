import { findAmounts } from "../amounts.js";
import { readInvoiceTotals } from "./invoice-totals.js";

/** What the rules checker reads from a document's text. */
export interface DocumentFacts {
  /**
   * The invoice total including VAT, in cents: from the embedded invoice XML when there is one,
   * else from labels such as "Totaal incl. btw", "Grand total", "Bruttosumme", "Total TTC".
   */
  totalCents: number | null;
  /** The amount still due ("Te betalen", "Amount due", "Zahlbetrag"), in cents, when named. */
  dueCents: number | null;
  /** An amount already paid (deposit, earlier payment), in cents, when named. */
  paidCents: number | null;
  /** The currency of the total (ISO 4217), when the document says. */
  currency: string | null;
  /** Where the amounts come from: the embedded invoice XML or the text. */
  source: "xml" | "text";
  /** The buyer's name, from the embedded invoice XML only. */
  buyerName: string | null;
  /** Invoice numbers after a label such as "Factuurnummer" or "Invoice no.", normalised. */
  invoiceNumbers: string[];
  /** VAT identification numbers, normalised (upper case, no spaces or dots). */
  vatNumbers: string[];
  /**
   * The seller's VAT identification numbers from the embedded invoice XML (BT-31), normalised;
   * empty without XML. Where present they, not every VAT number in the text (which may include
   * the buyer's), are the invoice's side of a comparison with the letter.
   */
  sellerVatNumbers: string[];
  /** The invoice number from the embedded invoice XML (BT-1), normalised; null without XML. */
  structuredInvoiceNumber: string | null;
  /**
   * The Dutch postcode of the buyer's address in the embedded invoice XML (BT-53, when the country
   * BT-55 is NL or absent), as "1234AB"; null without one.
   */
  buyerPostcode: string | null;
  /** Dutch postcodes, normalised as "1234AB". */
  postcodes: string[];
  /** Signs of a 14-day letter (art. 6:96 lid 6 BW). */
  wik: WikLetterSigns;
}

/**
 * When the letter says its payment term starts:
 * - `after_receipt`: after (the day of) receipt, as art. 6:96 lid 6 BW requires;
 * - `after_letter_date`: after the date of the letter or its sending ("na dagtekening");
 * - `from_letter_date`: on the letter's own date or today ("vanaf dagtekening", "vanaf heden");
 * - null: the letter does not say.
 */
export type TermStart = "after_receipt" | "after_letter_date" | "from_letter_date";

/** The parts of a 14-day letter the checks look for. */
export interface WikLetterSigns {
  /**
   * The payment term in days: the shortest term ("binnen 14 dagen", "een termijn van twee weken")
   * in a sentence that asks for payment; else the shortest such term anywhere; null when none.
   * Periods that are not a term to pay ("al 30 dagen vervallen") are not terms.
   */
  termDays: number | null;
  /** When the term of `termDays` starts, as its sentence says; null when it does not say. */
  termStart: TermStart | null;
  /** The letter says what happens when the debtor does not pay. */
  namesConsequence: boolean;
  /** The letter mentions collection costs at all. */
  mentionsCosts: boolean;
  /**
   * The amount stated for the collection costs, in cents: an amount in the same sentence as the
   * costs word that is not labelled as something else (openstaand, hoofdsom, totaal, rente).
   */
  costsCents: number | null;
  /** Words that mark a reminder: aanmaning, herinnering, ingebrekestelling, sommatie, reminder. */
  reminderWord: boolean;
}

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
  /\b(\d{1,3}|veertien|twee\s+weken|fourteen|two\s+weeks)\s*(?:\(\s*[a-z0-9]+\s*\)\s*)?(dagen|days|weken|weeks)?\b/gi;
// What must come just before a period for it to be a term to act within, so that "al 30 dagen
// vervallen" or "30 dagen na factuurdatum" in a recital is not read as the term.
const TERM_LEAD =
  /(?:\bbinnen|\buiterlijk|\btermijn\s+van|\bwithin|\bperiod\s+of|\bterm\s+of|\bu\s+heeft|\byou\s+have)\s+(?:een\s+(?:termijn\s+van\s+)?|a\s+(?:period\s+of\s+)?)?$/i;
// A sentence that asks for payment.
const PAYMENT_REQUEST =
  /\b(betaal|betalen|betaling|voldoen|voldoet|overmaken|overmaakt|over\s+te\s+maken|pay|payment|settle)\b/i;
const TERM_AFTER_RECEIPT =
  /\bna\s+(?:de\s+)?(?:dag\s+(?:van|na)\s+)?ontvangst\b|\bna\s+(?:het\s+)?ontvangen\b|\b(?:after|of|from)\s+(?:the\s+(?:day\s+of\s+|date\s+of\s+)?)?(?:receipt|receiving)\b/i;
const TERM_FROM_LETTER_DATE =
  /\b(?:vanaf|met\s+ingang\s+van|gerekend\s+vanaf)\s+(?:heden|vandaag|(?:de\s+)?dagtekening|(?:de\s+)?(?:datum|dag)\s+van\s+(?:deze|dit|onze)\s+(?:brief|aanmaning|schrijven|herinnering))|\bfrom\s+(?:today|the\s+date\s+of\s+this\s+(?:letter|notice))/i;
const TERM_AFTER_LETTER_DATE =
  /\bna\s+(?:de\s+)?(?:dagtekening|verzending|verzenddatum|(?:datum|dag)\s+van\s+(?:deze|dit|onze)\s+(?:brief|aanmaning|schrijven|herinnering))|\b(?:after|of)\s+the\s+date\s+of\s+this\s+(?:letter|notice)/i;
// Labels of an amount that is not the collection costs, even in the costs sentence.
const OTHER_AMOUNT_LABEL =
  /\b(openstaand|openstaande|hoofdsom|totaal|totaalbedrag|factuurbedrag|rente|btw|outstanding|principal|total|interest)\b/i;
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
export function readDocumentFacts(text: string, options: { ocr?: boolean } = {}): DocumentFacts {
  const lines = text
    .split(/\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && l !== "\f");
  // OCR text is read with strict number grouping (money.ts): a misread sign never joins an amount.
  const totals = readInvoiceTotals(text, { strict: options.ocr === true });
  return {
    totalCents: totals.totalCents,
    dueCents: totals.dueCents,
    paidCents: totals.paidCents,
    currency: totals.currency,
    source: "text",
    buyerName: null,
    invoiceNumbers: unique([...text.matchAll(INVOICE_LABEL)].map((m) => normaliseReference(m[1] ?? ""))),
    vatNumbers: findVatNumbers(text),
    sellerVatNumbers: [],
    structuredInvoiceNumber: null,
    buyerPostcode: null,
    postcodes: unique([...text.matchAll(POSTCODE)].map((m) => `${m[1]}${m[2]}`)),
    wik: readWikSigns(lines),
  };
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
  const sentences = splitSentences(lines);
  let requested: { days: number; start: TermStart | null } | null = null;
  let anywhere: { days: number; start: TermStart | null } | null = null;
  for (const sentence of sentences) {
    const asksPayment = PAYMENT_REQUEST.test(sentence);
    for (const m of sentence.matchAll(TERM)) {
      if (!TERM_LEAD.test(sentence.slice(0, m.index))) continue;
      const days = termInDays(m[1] ?? "", m[2] ?? "");
      if (days === null) continue;
      // The start is read from what follows the term in its own sentence.
      const found = { days, start: termStart(sentence.slice(m.index)) };
      if (asksPayment && (requested === null || days < requested.days)) requested = found;
      if (anywhere === null || days < anywhere.days) anywhere = found;
    }
  }
  const term = requested ?? anywhere;
  let costsCents: number | null = null;
  for (const sentence of sentences) {
    const costs = COSTS.exec(sentence);
    if (!costs) continue;
    costsCents = costsAmount(sentence, costs.index, costs.index + costs[0].length);
    if (costsCents !== null) break;
  }
  return {
    termDays: term?.days ?? null,
    termStart: term?.start ?? null,
    namesConsequence: CONSEQUENCE.test(text),
    mentionsCosts: COSTS.test(text),
    costsCents,
    reminderWord: REMINDER.test(text),
  };
}

// Sentences of the text: lines are joined (pdf.js breaks lines where the layout did, often
// mid-sentence) and split after ".", "!" or "?" followed by a capital, and at blank lines.
function splitSentences(lines: string[]): string[] {
  return lines
    .join(" ")
    .split(/(?<=[.!?])\s+(?=[A-Z\u00C0-\u00DE])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function termStart(afterTerm: string): TermStart | null {
  // Only the clause right after the term says when it starts.
  const clause = afterTerm.slice(0, 80);
  const hits: Array<[number, TermStart]> = [];
  for (const [pattern, start] of [
    [TERM_AFTER_RECEIPT, "after_receipt"],
    [TERM_FROM_LETTER_DATE, "from_letter_date"],
    [TERM_AFTER_LETTER_DATE, "after_letter_date"],
  ] as const) {
    const m = pattern.exec(clause);
    if (m) hits.push([m.index, start]);
  }
  hits.sort((a, b) => a[0] - b[0]);
  return hits[0]?.[1] ?? null;
}

// The costs amount: the first amount after the costs word in its sentence, or else the last one
// shortly before it ("€ 40,00 aan incassokosten"), skipping amounts labelled as something else
// ("Openstaand: € 121,00", "15% over de hoofdsom van € 121,00").
function costsAmount(sentence: string, wordStart: number, wordEnd: number): number | null {
  const amounts = findAmounts(sentence);
  let from = wordEnd;
  for (const amount of amounts) {
    if (amount.index < wordEnd) continue;
    const between = sentence.slice(from, amount.index);
    from = amount.index + amount.raw.length;
    if (OTHER_AMOUNT_LABEL.test(between)) continue;
    return amount.cents;
  }
  const before = amounts.filter((a) => a.index + a.raw.length <= wordStart).pop();
  if (before) {
    const between = sentence.slice(before.index + before.raw.length, wordStart);
    if (between.length <= 30 && !OTHER_AMOUNT_LABEL.test(between)) return before.cents;
  }
  return null;
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
