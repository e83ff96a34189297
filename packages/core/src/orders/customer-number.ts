// Spec Debtor.customer_number: "letters, digits, dot, underscore, slash, hyphen, space". Letters are
// every Unicode letter (\p{L}) and digits every decimal digit (\p{Nd}), checked after NFC
// normalisation so a decomposed "é" counts as the letter it shows (decision orders-customer-number).
const CUSTOMER_NUMBER = /^[\p{L}\p{Nd}._/ -]+$/u;

/**
 * Normalises a customer number to Unicode NFC without leading and trailing spaces, and returns it
 * when it uses only the allowed characters and is not blank, otherwise null. The length limit (50)
 * is checked by the schema, on the value as sent. Both steps matter because the customer number
 * decides whether an order merges into an open case: two spellings a person reads as the same
 * number (a decomposed "é", " K-1 " and "K-1") must compare equal, or one debtor gets a second case
 * (decision orders-customer-number).
 *
 * @example
 * normaliseCustomerNumber("KL-2026/001"); // "KL-2026/001"
 * normaliseCustomerNumber("Café 12"); // "Café 12"
 * normaliseCustomerNumber(" K-1 "); // "K-1"
 * normaliseCustomerNumber("KL#1"); // null
 * normaliseCustomerNumber("   "); // null
 */
export function normaliseCustomerNumber(value: string): string | null {
  const nfc = value.normalize("NFC");
  if (!CUSTOMER_NUMBER.test(nfc)) return null;
  // Only the ASCII space is an allowed character, so only it can pad the value.
  const trimmed = nfc.replace(/^ +| +$/g, "");
  return trimmed === "" ? null : trimmed;
}

/**
 * A `customer_number` filter (GET /orders) in the form customer numbers are stored in: NFC without
 * leading and trailing spaces, so the spelling a client sent when it submitted finds its order. A
 * filter with characters no customer number may have is only NFC-normalised; it finds nothing.
 *
 * @example
 * customerNumberFilter("Cafe\u0301 12 "); // "Café 12"
 * customerNumberFilter("K#1"); // "K#1"
 */
export function customerNumberFilter(value: string): string {
  return normaliseCustomerNumber(value) ?? value.normalize("NFC");
}
