/**
 * A custom-field value (spec CreateOrder.udf_fields: text, number, boolean or date).
 *
 * @example
 * const v: UdfValue = "2026-01-31";
 */
export type UdfValue = string | number | boolean;

/**
 * One custom-field definition of an account (spec CreateOrder.udf_fields: "key names are agreed per
 * account ... the type being fixed by the field definition").
 *
 * @example
 * const def: UdfDefinition = { name: "contract_date", type: "date" };
 */
export interface UdfDefinition {
  name: string;
  type: "text" | "number" | "boolean" | "date";
}

/**
 * An address after validation: country filled in (default NL) and upper case, a Dutch postal code
 * in the format `1234 AB`.
 *
 * @example
 * const a: NormalisedAddress = { street: "Teststraat", house_number: "10", house_number_suffix: null, postal_code: "9999 ZZ", city: "Testdorp", country: "NL" };
 */
export interface NormalisedAddress {
  street: string;
  house_number: string;
  house_number_suffix: string | null;
  postal_code: string;
  city: string;
  country: string;
}

/**
 * A debtor after validation. Absent optional fields are null; `first_name` and `middle_name` are
 * null for a business and when blank; `customer_number` is in Unicode NFC.
 *
 * @example
 * const d: NormalisedDebtor = {
 *   type: "individual", company_name: null, first_name: "Jan", middle_name: "de", last_name: "Vries",
 *   customer_number: "K-1001", email: null, phone: null,
 *   address: { street: "Teststraat", house_number: "10", house_number_suffix: null, postal_code: "9999 ZZ", city: "Testdorp", country: "NL" },
 * };
 */
export interface NormalisedDebtor {
  type: "business" | "individual";
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  customer_number: string | null;
  email: string | null;
  phone: string | null;
  address: NormalisedAddress;
}

/**
 * An invoice after validation: `due_date` is always set, computed from `invoice_date` and
 * `payment_term_days` when the client gave the term (spec Invoice: "the service computes the due
 * date"); `payment_term_days` stays as sent (null when the due date was given).
 *
 * @example
 * const i: NormalisedInvoice = { invoice_number: "F-1", invoice_date: "2026-09-01", due_date: "2026-10-01", payment_term_days: 30, amount_cents: 125000, description: null };
 */
export interface NormalisedInvoice {
  invoice_number: string;
  invoice_date: string;
  due_date: string;
  payment_term_days: number | null;
  amount_cents: number;
  description: string | null;
}

/**
 * An attachment after field validation; its content is judged later by @incasso/pdf-guard.
 *
 * @example
 * const a: NormalisedAttachment = { filename: "factuur.pdf", content_base64: "JVBERi0=", document_type: "invoice" };
 */
export interface NormalisedAttachment {
  filename: string;
  content_base64: string;
  document_type: "invoice" | "wik_letter" | "other" | null;
}

/**
 * A valid CreateOrder, normalised for the engine. `metadata` and `udf_fields` are exactly as sent
 * (`{}` when absent) because the response echoes them unchanged; `case_udf_fields` holds only the
 * keys the account defined, which are the ones written to the case.
 *
 * @example
 * const r = validateCreateOrder(body, { today: "2026-11-21", udfDefinitions: [] });
 * if (r.ok) console.log(r.order.invoices[0]?.due_date);
 */
export interface NormalisedOrder {
  type: "pre-incasso" | "incasso";
  reference: string | null;
  /** Null when absent, null or blank: the service then generates a title (spec CreateOrder.title). */
  title: string | null;
  description: string | null;
  creditor: { id: string } | { reference: string } | null;
  metadata: Record<string, string>;
  /** As sent, unknown keys included (their values are not judged: "an unknown key is skipped"). */
  udf_fields: Record<string, unknown>;
  /** The defined keys only, typed: what is written to the case. */
  case_udf_fields: Record<string, UdfValue>;
  debtors: NormalisedDebtor[];
  invoices: NormalisedInvoice[];
  attachments: NormalisedAttachment[];
}
