// Spec Debtor.customer_number: "letters, digits, dot, underscore, slash, hyphen, space". Letters are
// every Unicode letter (\p{L}) and digits every decimal digit (\p{Nd}), checked after NFC
// normalisation so a decomposed "é" counts as the letter it shows (decision orders-customer-number).
const CUSTOMER_NUMBER = /^[\p{L}\p{Nd}._/ -]+$/u;

/**
 * Normalises a customer number to Unicode NFC and returns it when it uses only the allowed
 * characters and is not blank, otherwise null. The length limit (50) is checked by the schema.
 * NFC matters because the customer number decides whether an order merges into an open case:
 * two spellings that look the same must compare equal.
 *
 * @example
 * normaliseCustomerNumber("KL-2026/001"); // "KL-2026/001"
 * normaliseCustomerNumber("Café 12"); // "Café 12"
 * normaliseCustomerNumber("KL#1"); // null
 * normaliseCustomerNumber("   "); // null
 */
export function normaliseCustomerNumber(value: string): string | null {
  const nfc = value.normalize("NFC");
  if (!CUSTOMER_NUMBER.test(nfc) || nfc.trim() === "") return null;
  return nfc;
}
