// Amounts in Dutch notation for the console's pages and forms. Dates in Dutch notation come from
// @incasso/core's one module for them, under the names the console has always exported.
export {
  formatDutchDate as formatDate,
  formatDutchMoment as formatMoment,
  formatDutchTime as formatTime,
  parseDutchDate,
} from "@incasso/core";

const EURO = new Intl.NumberFormat("nl-NL", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Euro cents in Dutch notation: the euro sign, a space, dots between thousands and a decimal comma.
 *
 * @example
 * formatEuro(123456); // "€ 1.234,56"
 * formatEuro(-500); // "€ -5,00"
 */
export function formatEuro(cents: number): string {
  return `€ ${EURO.format(cents / 100)}`;
}

/**
 * An amount typed in Dutch or plain notation ("1.234,56", "1234.56", "€ 12") as euro cents, or
 * undefined when it is not one.
 *
 * @example
 * parseEuro("1.234,56"); // 123456
 * parseEuro("12"); // 1200
 * parseEuro("twaalf"); // undefined
 */
export function parseEuro(text: string): number | undefined {
  let t = text.replace(/[€\s]/g, "");
  if (t.includes(",")) t = t.replace(/\./g, "").replace(",", ".");
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(t)) return undefined;
  return Math.round(Number(t) * 100);
}
