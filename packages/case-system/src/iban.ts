/**
 * Lengths of the IBANs of the SEPA countries a Dutch debtor is most likely to pay to (ISO 13616
 * registry, SWIFT release 2024). Another country's IBAN is held to the general 15 to 34 characters.
 */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 16,
  CH: 21,
  DE: 22,
  DK: 18,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  IE: 22,
  IT: 27,
  LU: 20,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  SE: 24,
};

/**
 * An IBAN in its electronic form (ISO 13616-1 §5): spaces left out, letters in capitals; the
 * check digits are not checked here (see {@link ibanProblem}).
 *
 * @example
 * normaliseIban(" nl91 abna 0417 1643 00 "); // "NL91ABNA0417164300"
 */
export function normaliseIban(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

/**
 * Why an IBAN (in electronic form) is not one, or undefined when it is: the shape (country code,
 * two check digits, up to 30 letters and digits), the length of its country, and the ISO 7064
 * mod 97-10 check that ISO 13616 prescribes (the number with its first four characters moved to
 * the end and letters as 10 to 35 leaves 1 when divided by 97).
 *
 * @example
 * ibanProblem("NL91ABNA0417164300"); // undefined
 * ibanProblem("NL92ABNA0417164300"); // "its check digits do not match (ISO 13616 mod-97)"
 */
export function ibanProblem(iban: string): string | undefined {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) {
    return "it must be a country code, two check digits and 11 to 30 letters and digits";
  }
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) {
    return `an IBAN of ${iban.slice(0, 2)} has ${expected} characters, not ${iban.length}`;
  }
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= "A" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1 ? undefined : "its check digits do not match (ISO 13616 mod-97)";
}

/**
 * An IBAN in the paper form of ISO 13616-1 §5: groups of four separated by spaces.
 *
 * @example
 * formatIban("NL91ABNA0417164300"); // "NL91 ABNA 0417 1643 00"
 */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, "$1 ");
}
