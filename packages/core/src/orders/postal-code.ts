// Accepted spellings: four digits, then an optional single space, then two letters in either case.
// The spec's format (Address: "four digits, space, two letters") is what comes out of
// normaliseDutchPostalCode (decision orders-postal-code).
const DUTCH_POSTAL_CODE_INPUT = /^(\d{4}) ?([A-Za-z]{2})$/;

/**
 * The format the spec prescribes for a Dutch postal code (Address.postal_code when country is NL).
 *
 * @example
 * DUTCH_POSTAL_CODE_FORMAT.test("1234 AB"); // true
 * DUTCH_POSTAL_CODE_FORMAT.test("1234AB"); // false (normaliseDutchPostalCode accepts it)
 */
export const DUTCH_POSTAL_CODE_FORMAT = /^\d{4} [A-Z]{2}$/;

/**
 * Brings a Dutch postal code into the spec's format "four digits, space, two letters", or returns
 * null when it cannot be read as one. Only the missing space and lower-case letters are repaired;
 * anything else (other separators, extra spaces, surrounding blanks) is refused.
 *
 * @example
 * normaliseDutchPostalCode("1234ab"); // "1234 AB"
 * normaliseDutchPostalCode("1234 AB"); // "1234 AB"
 * normaliseDutchPostalCode("1234-AB"); // null
 */
export function normaliseDutchPostalCode(value: string): string | null {
  const m = DUTCH_POSTAL_CODE_INPUT.exec(value);
  if (m === null) return null;
  return `${m[1]} ${(m[2] ?? "").toUpperCase()}`;
}
