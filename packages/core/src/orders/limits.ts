/**
 * The limits of an order, each taken from the spec's resource tables and its Limits table. The
 * schemas and the validator read them from here so the OpenAPI document and the checks cannot
 * disagree.
 *
 * @example
 * ORDER_LIMITS.invoicesPerOrder.max; // 50
 * ORDER_LIMITS.length.company_name; // 200
 */
export const ORDER_LIMITS = Object.freeze({
  /** Limits table "Debtors per order": 1 to 5. */
  debtorsPerOrder: Object.freeze({ min: 1, max: 5 }),
  /** Limits table "Invoices per order": 1 to 50. */
  invoicesPerOrder: Object.freeze({ min: 1, max: 50 }),
  /** Limits table "Invoice amount": 1 to 100000000000 cents; above it the code is `amount_too_high`. */
  amountCents: Object.freeze({ min: 1, max: 100_000_000_000 }),
  /** Limits table "Payment term": 0 to 365 days. */
  paymentTermDays: Object.freeze({ min: 0, max: 365 }),
  /** CreateOrder.metadata: max 30 keys, key max 40 chars, value max 500 chars. */
  metadata: Object.freeze({ maxKeys: 30, maxKeyLength: 40, maxValueLength: 500 }),
  /** CreateOrder.udf_fields: max 25 keys. */
  udfFields: Object.freeze({ maxKeys: 25 }),
  /** Limits table "Control reason": max 1000 chars (hold, withdraw, payments). */
  controlReason: 1000,
  /** Limits table "Page size": 1 to 100, default 25 (GET /orders). */
  pageSize: Object.freeze({ min: 1, max: 100, default: 25 }),
  /**
   * Maximum lengths in characters (Limits table "Field lengths" and the resource tables). The check
   * is zod's `max()`, which counts Unicode code points, as JSON Schema's `maxLength` does: an emoji
   * outside the Basic Multilingual Plane counts as one character, not as its two UTF-16 code units
   * (decision orders-field-errors).
   */
  length: Object.freeze({
    reference: 100,
    title: 200,
    description: 2000,
    invoice_description: 500,
    invoice_number: 50,
    customer_number: 50,
    company_name: 200,
    first_name: 100,
    middle_name: 50,
    last_name: 100,
    phone: 30,
    street: 150,
    house_number: 10,
    house_number_suffix: 10,
    postal_code: 12,
    city: 100,
    filename: 120,
    /** Not in the spec's tables: RFC 5321 §4.5.3.1.3 limits a forward path to 256 octets, so an address to 254. */
    email: 254,
  }),
});
