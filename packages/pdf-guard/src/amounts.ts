// Money amounts as they appear in Dutch and English documents. No floating point: the amount is
// assembled from its digit strings, so "0,29" is 29 cents exactly.

const CURRENCY = /€|\bEUR\b|\beuro\b/gi;
// Spaces people and PDF generators put between digit groups or after the currency sign: normal,
// no-break (U+00A0), thin (U+2009) and narrow no-break (U+202F).
const SPACES = /[\s\u00a0\u2009\u202f]/g;

/**
 * Parses one money amount in Dutch or English notation into euro cents, or null when the text is
 * not a single amount. Accepted: `€ 1.250,00`, `1.250,00`, `1,250.00`, `EUR 1250`, `1250,-`,
 * `€1.250`, `12,5`, `1 250,00`, `-12,50`. The rule for a lone separator: followed by exactly three
 * digits it groups thousands (`1,250` and `1.250` are 1250 euro), followed by one or two digits it
 * is the decimal mark. With two kinds of separator, the last one is the decimal mark.
 *
 * @example
 * parseAmountCents("€ 1.250,00"); // 125000
 * parseAmountCents("1,250.00"); // 125000
 * parseAmountCents("EUR 1250"); // 125000
 * parseAmountCents("twaalf"); // null
 */
export function parseAmountCents(text: string): number | null {
  let s = text.replace(CURRENCY, "").replace(SPACES, "");
  let negative = false;
  if (s.startsWith("-") || s.startsWith("−")) {
    negative = true;
    s = s.slice(1);
  }
  // "1.250,-" and "1.250,--": whole euros in Dutch notation.
  s = s.replace(/[.,]-{1,2}$/, "");
  if (!/^\d[\d.,']*$/.test(s) || /[.,']$/.test(s)) return null;

  let whole = s;
  let fraction = "";
  const lastSep = Math.max(s.lastIndexOf("."), s.lastIndexOf(","));
  // One or two digits after the last separator make it the decimal mark; three digits make it a
  // thousands separator.
  if (lastSep >= 0 && s.length - lastSep - 1 <= 2) {
    whole = s.slice(0, lastSep);
    fraction = s.slice(lastSep + 1);
  }
  // Whatever separators remain in the whole part must group digits by three: "1.250.000", "1'250".
  if (/[.,']/.test(whole)) {
    const groupSeps = new Set(whole.replace(/\d/g, ""));
    if (groupSeps.size !== 1 || !/^\d{1,3}([.,']\d{3})+$/.test(whole)) return null;
    if (fraction !== "" && groupSeps.has(s.charAt(lastSep))) return null;
    whole = whole.replace(/[.,']/g, "");
  }
  if (whole.length > 13) return null;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0") || "0");
  if (!Number.isSafeInteger(cents)) return null;
  return negative ? -cents : cents;
}

// An amount inside running text: optional currency before or after, digits with group and decimal
// separators. Not followed by "%" (a VAT rate) and not part of a date like 15-01-2026.
const AMOUNT_IN_TEXT =
  /(?<![\d.,\-/])(?:(?:€|euro|EUR)[\s\u00a0\u2009\u202f]*)?-?\d{1,3}(?:(?:[.,'\u00a0\u202f]|\s(?=\d{3}\b))\d{3})*(?:[.,](?:\d{1,2}|-{1,2}))?(?:[\s\u00a0]*(?:€|euro|EUR))?(?![\d%]|[.,]\d|-\d|\/\d)|(?<![\d.,\-/])(?:(?:€|euro|EUR)[\s\u00a0\u2009\u202f]*)-?\d+(?:[.,]\d{1,2})?(?![\d%])/gi;

/**
 * Finds the money amounts in a line of text, in order, with their position. Bare integers without a
 * currency sign or decimals (house numbers, years, "14 dagen") are not amounts.
 *
 * @example
 * findAmounts("Subtotaal € 100,00 BTW 21% € 21,00").map((a) => a.cents); // [10000, 2100]
 */
export function findAmounts(line: string): Array<{ cents: number; index: number; raw: string }> {
  const found: Array<{ cents: number; index: number; raw: string }> = [];
  for (const match of line.matchAll(AMOUNT_IN_TEXT)) {
    const raw = match[0].trim();
    const hasCurrency = /€|euro|EUR/i.test(raw);
    const hasDecimals = /[.,](\d{1,2}|-{1,2})$/.test(raw.replace(/[\s\u00a0]*(€|euro|EUR)$/i, ""));
    if (!hasCurrency && !hasDecimals) continue;
    const cents = parseAmountCents(raw);
    if (cents !== null) found.push({ cents, index: match.index ?? 0, raw });
  }
  return found;
}

/**
 * Writes cents the Dutch way: `€ 1.250,00`, the form {@link parseAmountCents} reads back. The one
 * formatter of amounts: the warnings here, and through @incasso/core (`formatDutchEuro`) the
 * 14-day letter, the console and the CLI.
 *
 * @example
 * formatEuro(125000); // "€ 1.250,00"
 * formatEuro(-50); // "-€ 0,50"
 */
export function formatEuro(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}€ ${whole},${String(abs % 100).padStart(2, "0")}`;
}
