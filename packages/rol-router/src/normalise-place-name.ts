const NON_ASCII = /[^\x20-\x7e]/;
const ST = /(?:^| )st(?: |$)/;

/**
 * Normalises a place, municipality or province name for matching, so that the ways people type a
 * name meet the BAG spelling: case, diacritics (`Fryslân`), hyphens versus spaces (`'s-Gravenhage`
 * / `s Gravenhage`), apostrophes, brackets, dots and stray spaces are folded away, and the
 * abbreviation `St.` is read as `Sint` (BAG has both `St.-Annaparochie` and `Sint Jansteen`).
 *
 * @example
 * normalisePlaceName("  's-Gravenhage ");   // "s gravenhage"
 * normalisePlaceName("Hengelo (Gld)");      // "hengelo gld"
 * normalisePlaceName("St.-Annaparochie");   // "sint annaparochie"
 * normalisePlaceName("Fryslân");            // "fryslan"
 */
export function normalisePlaceName(name: string): string {
  // NFKD is costly; plain ASCII input (the usual case) skips it.
  const ascii = !NON_ASCII.test(name);
  const folded = (ascii ? name : name.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""))
    .toLowerCase()
    .replace(/['’‘`´]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  if (folded === "") return "";
  if (!ST.test(folded)) return folded;
  const tokens = folded.split(" ");
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === "st") tokens[i] = "sint";
  return tokens.join(" ");
}
