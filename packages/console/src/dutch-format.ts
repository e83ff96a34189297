// Amounts in Dutch notation for the console's pages and forms. Amounts and dates in Dutch notation
// are written by @incasso/core, under the names the console has always exported.
import { formatDutchEuro } from "@incasso/core";

export {
  formatDutchDate as formatDate,
  formatDutchMoment as formatMoment,
  formatDutchTime as formatTime,
  parseDutchDate,
} from "@incasso/core";

/**
 * Euro cents in Dutch notation: the euro sign, a space, dots between thousands and a decimal comma;
 * @incasso/core's `formatDutchEuro`, the one formatter the letters and the document check use too.
 *
 * @example
 * formatEuro(123456); // "€ 1.234,56"
 * formatEuro(-500); // "-€ 5,00"
 */
export const formatEuro: (cents: number) => string = formatDutchEuro;

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
