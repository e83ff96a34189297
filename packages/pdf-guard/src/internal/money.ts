import { parseAmountCents } from "../amounts.js";

/** A money amount found in a line of text. */
export interface MoneyInText {
  /** The amount in cents (of its own currency). */
  cents: number;
  /** Where the match starts and ends in the line, currency signs included. */
  index: number;
  end: number;
  raw: string;
  /** ISO 4217 code of the sign or code written with it, or null when none is. */
  currency: string | null;
}

// Currency signs and codes an invoice writes with its amounts (issue 30: €, EUR, $, USD, £, GBP,
// CHF; "Fr." and "SFr." are the Swiss notation of CHF).
const CURRENCY_CODES: Record<string, string> = {
  "€": "EUR",
  eur: "EUR",
  euro: "EUR",
  $: "USD",
  usd: "USD",
  "£": "GBP",
  gbp: "GBP",
  chf: "CHF",
  "fr.": "CHF",
  "sfr.": "CHF",
};
const CUR = String.raw`(?:€|\$|£|\bEURO?\b|\beuro\b|\bUSD\b|\bGBP\b|\bCHF\b|\bS?Fr\.)`;
const SP = String.raw`[ \u00a0\u2009\u202f]`;
// The number: digits grouped by three with ".", ",", "'", "’" or a (thin, no-break) space, with
// or without decimals; or plain digits with one or two decimals ("1053,00"); or plain digits, which
// count only with a currency (see findMoney). A Dutch ",-" or ",--" ends whole euros.
const NUM = String.raw`\d{1,3}(?:(?:[.,'’]|${SP}(?=\d{3}(?!\d)))\d{3})+(?:[.,](?:\d{1,2}|-{1,2}))?|\d+(?:[.,](?:\d{1,2}|-{1,2}))?`;
// Not part of a longer number, a date (19.01.2016), a percentage, a reference or an IBAN.
const BEFORE = String.raw`(?<![\d.,'’/\-])`;
const AFTER = String.raw`(?![\d%]|[.,'’/]\d|-\d|${SP}?%)`;
const MONEY = new RegExp(`${BEFORE}(?:(${CUR})${SP}*)?([-−])?(${NUM})${AFTER}(?:${SP}*(${CUR}))?(-)?`, "giu");
// Text read by OCR (issue 30, point 5): digit groups are joined only by "." or ",". A space or an
// apostrophe between digits there may be a misread sign ("€ 121,00" read as "6 121,00"), so it
// never joins two numbers into one amount; the sign's digit is then a bare number, not money.
const NUM_STRICT = String.raw`\d{1,3}(?:[.,]\d{3})+(?:[.,](?:\d{1,2}|-{1,2}))?|\d+(?:[.,](?:\d{1,2}|-{1,2}))?`;
const BEFORE_STRICT = String.raw`(?<![\d.,'’/\-]|\d${SP})`;
const MONEY_STRICT = new RegExp(
  `${BEFORE_STRICT}(?:(${CUR})${SP}*)?([-−])?(${NUM_STRICT})${AFTER}(?:${SP}*(${CUR}))?(-)?`,
  "giu",
);

/**
 * How {@link findMoney} reads: `strict` for text read by OCR, where digits separated by a space
 * or an apostrophe are never one amount, an amount right after a lone digit and a space is not
 * taken (the digit may be its misread currency sign), and an amount needs its decimals (OCR drops
 * a decimal comma, turning 530,75 into 53075).
 */
export interface FindMoneyOptions {
  strict?: boolean;
}

/**
 * Finds the money amounts in one line, in order: an amount has a currency sign or code before or
 * after it, or two decimals, or groups of three digits with a decimal part; a bare whole number
 * ("14 dagen", a house number, a year) is not one. A leading minus, or a trailing one as some
 * systems print it ("50,00-"), makes the amount negative.
 *
 * @example
 * findMoney("Gesamtbetrag 1053,00 EUR").map((m) => m.cents); // [105300]
 * findMoney("Total due: $1,053.00")[0]?.currency; // "USD"
 * findMoney("Totaal 6 121,00", { strict: true }).length; // 0
 */
export function findMoney(line: string, options: FindMoneyOptions = {}): MoneyInText[] {
  const found: MoneyInText[] = [];
  for (const m of line.matchAll(options.strict ? MONEY_STRICT : MONEY)) {
    const [raw, before, minus, number, after, trailingMinus] = m;
    if (number === undefined) continue;
    const sign = before ?? after;
    // "bis zum 19.12. geliefert": a day and month, not an amount.
    if (!sign && /^\d{1,2}\.\d{1,2}$/.test(number) && line.charAt((m.index ?? 0) + raw.length) === ".")
      continue;
    const hasDecimals = /[.,](?:\d{2}|-{1,2})$/.test(number);
    if (!sign && !hasDecimals) continue;
    // OCR drops decimal separators ("530,75 €" read as "53075€"): there an amount needs its cents.
    if (options.strict && !hasDecimals) continue;
    const cents = parseAmountCents(number);
    if (cents === null) continue;
    const negative = minus !== undefined || trailingMinus !== undefined;
    const index = m.index ?? 0;
    found.push({
      cents: negative ? -cents : cents,
      index,
      end: index + raw.length,
      raw: raw.trim(),
      currency: sign ? (CURRENCY_CODES[sign.toLowerCase()] ?? null) : null,
    });
  }
  return found;
}
