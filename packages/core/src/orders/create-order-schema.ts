import { AttachmentSchema } from "@incasso/pdf-guard";
import { z } from "zod";
import { CreditorRefSchema } from "./creditor-ref-schema.js";
import { DebtorSchema } from "./debtor-schema.js";
import { addIssue, optionalText, whenObject } from "./internal/schema-parts.js";
import { InvoiceSchema } from "./invoice-schema.js";
import { ORDER_LIMITS } from "./limits.js";

const L = ORDER_LIMITS.length;
const M = ORDER_LIMITS.metadata;

/**
 * The order types (spec CreateOrder.type).
 *
 * @example
 * OrderTypeSchema.parse("pre-incasso");
 */
export const OrderTypeSchema = z
  .enum(["pre-incasso", "incasso"])
  .describe(
    "pre-incasso: the service first sends a cost-free statutory reminder letter; incasso: full amicable collection starts immediately.",
  );

/**
 * CreateOrder.metadata: at most 30 keys of at most 40 characters, string values of at most 500.
 *
 * @example
 * MetadataSchema.parse({ dossier: "2026-114" });
 */
export const MetadataSchema = z
  .record(z.string().max(M.maxKeyLength), z.string().max(M.maxValueLength))
  .superRefine((metadata, ctx) => {
    const count = Object.keys(metadata as object).length;
    if (count > M.maxKeys)
      addIssue(ctx, [], "too_many_keys", `must have at most ${M.maxKeys} keys, got ${count}`);
  }, whenObject)
  .describe(
    "Free key-value pairs: at most 30 keys of at most 40 characters, string values of at most 500 characters. " +
      "Stored, echoed in responses and written as a note on the case.",
  );

/**
 * CreateOrder.udf_fields: at most 25 custom case fields, each a text, number, boolean or date
 * (`YYYY-MM-DD`) value. The type of each key is fixed by the account's field definitions, which
 * {@link validateCreateOrder} applies; unknown keys are skipped with warning `udf_field_unknown`.
 *
 * @example
 * UdfFieldsSchema.parse({ project_code: "P-17", priority: 2, vip: true, contract_date: "2026-01-31" });
 */
export const UdfFieldsSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .superRefine((udf, ctx) => {
    const count = Object.keys(udf as object).length;
    const max = ORDER_LIMITS.udfFields.maxKeys;
    if (count > max) addIssue(ctx, [], "too_many_keys", `must have at most ${max} keys, got ${count}`);
  }, whenObject)
  .describe(
    "Custom case fields agreed per account, at most 25 keys; values are text, number, boolean or date (YYYY-MM-DD) " +
      "as fixed by the field definition. Unknown keys are skipped with warning udf_field_unknown.",
  );

/**
 * The request body of POST /orders (spec CreateOrder), in input form: the field rules of the
 * CreateOrder, Debtor, Address, Invoice and Attachment tables. {@link validateCreateOrder} runs it
 * and adds the business rules (`wik_letter_required`, invoice_date not in the future, the
 * attachment count, the account's custom fields), maps the findings to the spec's `errors[]` and
 * normalises the order. Unknown fields are tolerated (the validator reports them as warnings).
 *
 * @example
 * CreateOrderSchema.safeParse({
 *   type: "pre-incasso",
 *   debtors: [{ type: "business", company_name: "Test B.V.", address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" } }],
 *   invoices: [{ invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 30, amount_cents: 125000 }],
 * }).success; // true
 */
export const CreateOrderSchema = z
  .object({
    type: OrderTypeSchema,
    reference: optionalText(L.reference)
      .nullable()
      .optional()
      .describe(
        "The client's own reference, max 100 characters; echoed in all responses and stored on the case.",
      ),
    title: optionalText(L.title)
      .nullable()
      .optional()
      .describe(
        "Claim title, max 200 characters, ideally 'agreement of assignment for ...'; generated when absent or blank.",
      ),
    description: optionalText(L.description)
      .nullable()
      .optional()
      .describe("Description, max 2000 characters."),
    creditor: CreditorRefSchema.nullable().optional(),
    metadata: MetadataSchema.optional(),
    udf_fields: UdfFieldsSchema.optional(),
    debtors: z
      .array(DebtorSchema)
      .min(ORDER_LIMITS.debtorsPerOrder.min)
      .max(ORDER_LIMITS.debtorsPerOrder.max)
      .describe("1 to 5 debtors, addressed jointly for the same claim."),
    invoices: z
      .array(InvoiceSchema)
      .min(ORDER_LIMITS.invoicesPerOrder.min)
      .max(ORDER_LIMITS.invoicesPerOrder.max)
      .describe("1 to 50 invoices."),
    attachments: z
      .array(AttachmentSchema)
      .optional()
      .describe(
        "PDF attachments as base64; at most 30 per order by default (the spec states both 10 and 30; " +
          "the operator may lower it), 10 MB per file and 25 MB in total, decoded.",
      ),
  })
  .meta({
    id: "CreateOrder",
    description:
      "A collection order: one claim against one or more debtors, with its invoices and optional PDF attachments.",
  });

/**
 * A CreateOrder as the client sends it.
 *
 * @example
 * const body: CreateOrderInput = { type: "incasso", debtors: [], invoices: [] };
 */
export type CreateOrderInput = z.input<typeof CreateOrderSchema>;
