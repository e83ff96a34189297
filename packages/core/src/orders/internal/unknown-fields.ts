import { AttachmentSchema } from "@incasso/pdf-guard";
import { AddressSchema } from "../address-schema.js";
import { CreateOrderSchema } from "../create-order-schema.js";
import { CreditorRefSchema } from "../creditor-ref-schema.js";
import { DebtorSchema } from "../debtor-schema.js";
import { InvoiceSchema } from "../invoice-schema.js";
import type { Warning } from "../warnings.js";
import { formatFieldPath } from "./field-path.js";
import { isRecord } from "./schema-parts.js";

// The known keys come from the schemas themselves, so a field added to a schema can never be
// reported as unknown.
const KNOWN = {
  order: new Set(Object.keys(CreateOrderSchema.shape)),
  creditor: new Set(Object.keys(CreditorRefSchema.shape)),
  debtor: new Set(Object.keys(DebtorSchema.shape)),
  address: new Set(Object.keys(AddressSchema.shape)),
  invoice: new Set(Object.keys(InvoiceSchema.shape)),
  attachment: new Set(Object.keys(AttachmentSchema.shape)),
};

/** At most this many `unknown_field` warnings name a field; the rest are counted in one more. */
export const MAX_UNKNOWN_FIELD_WARNINGS = 20;

interface Found {
  path: PropertyKey[];
  invoiceNumber: string | null;
}

function collect(
  value: unknown,
  known: Set<string>,
  path: PropertyKey[],
  into: Found[],
  invoiceNumber: string | null,
) {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (!known.has(key)) into.push({ path: [...path, key], invoiceNumber });
  }
}

function eachItem(list: unknown, fn: (item: unknown, index: number) => void) {
  if (Array.isArray(list)) list.forEach(fn);
}

/**
 * The `unknown_field` warnings of a valid body: one per unknown field, at any depth of the fixed
 * structure (metadata and udf_fields are maps and have no unknown fields), in document order.
 * Decision orders-unknown-fields.
 */
export function unknownFieldWarnings(body: Record<string, unknown>): Warning[] {
  const found: Found[] = [];
  collect(body, KNOWN.order, [], found, null);
  collect(body.creditor, KNOWN.creditor, ["creditor"], found, null);
  eachItem(body.debtors, (debtor, i) => {
    collect(debtor, KNOWN.debtor, ["debtors", i], found, null);
    if (isRecord(debtor)) collect(debtor.address, KNOWN.address, ["debtors", i, "address"], found, null);
  });
  eachItem(body.invoices, (invoice, i) => {
    const number =
      isRecord(invoice) && typeof invoice.invoice_number === "string" ? invoice.invoice_number : null;
    collect(invoice, KNOWN.invoice, ["invoices", i], found, number);
  });
  eachItem(body.attachments, (attachment, i) => {
    collect(attachment, KNOWN.attachment, ["attachments", i], found, null);
  });
  const warnings: Warning[] = found.slice(0, MAX_UNKNOWN_FIELD_WARNINGS).map((f) => ({
    code: "unknown_field",
    message: `Het veld ${formatFieldPath(f.path)} is onbekend en is genegeerd.`,
    invoice_number: f.invoiceNumber,
  }));
  const rest = found.length - MAX_UNKNOWN_FIELD_WARNINGS;
  if (rest > 0) {
    warnings.push({
      code: "unknown_field",
      message: `Nog ${rest} onbekende ${rest === 1 ? "veld is" : "velden zijn"} genegeerd.`,
      invoice_number: null,
    });
  }
  return warnings;
}
