import { DEFAULT_ATTACHMENT_LIMITS } from "@incasso/pdf-guard";
import { isIsoDate } from "../calendar-dates.js";
import { DEFAULT_COUNTRY, normaliseCountryCode } from "./country-code.js";
import { type CreateOrderInput, CreateOrderSchema, MetadataSchema } from "./create-order-schema.js";
import { normaliseCustomerNumber } from "./customer-number.js";
import { dueDateOf } from "./due-date.js";
import { OrdersError } from "./errors.js";
import type { FieldError } from "./field-error.js";
import type { RuleIssue } from "./internal/cross-field-rules.js";
import { formatFieldPath } from "./internal/field-path.js";
import { hasText, isRecord } from "./internal/schema-parts.js";
import { checkUdfFields } from "./internal/udf-fields.js";
import { unknownFieldWarnings } from "./internal/unknown-fields.js";
import { issuesToFieldErrors } from "./internal/zod-issues.js";
import { ORDER_LIMITS } from "./limits.js";
import type {
  NormalisedAddress,
  NormalisedDebtor,
  NormalisedOrder,
  UdfDefinition,
  UdfValue,
} from "./normalised-order.js";
import { normaliseDutchPostalCode } from "./postal-code.js";
import type { Warning } from "./warnings.js";

/**
 * What {@link validateCreateOrder} needs besides the body.
 *
 * @example
 * const ctx: ValidateCreateOrderContext = { today: "2026-11-21", udfDefinitions: [{ name: "project", type: "text" }] };
 */
export interface ValidateCreateOrderContext {
  /** Today in Europe/Amsterdam, `YYYY-MM-DD`; an invoice_date after it is refused. */
  today: string;
  /** The account's custom-field definitions (spec CreateOrder.udf_fields). */
  udfDefinitions: ReadonlyArray<UdfDefinition>;
  /**
   * Most attachments per order. Default 30, the same default as @incasso/pdf-guard (the spec
   * states both 10 and 30; decision pdf-guard-attachment-count).
   */
  maxAttachments?: number;
}

/**
 * The top-level problem code of a refused order (spec Errors, all 422).
 *
 * @example
 * const code: CreateOrderProblemCode = "amount_too_high";
 */
export type CreateOrderProblemCode = "validation_error" | "amount_too_high" | "wik_letter_required";

/**
 * The outcome of {@link validateCreateOrder}: the normalised order with its warnings, or every
 * violation at once.
 *
 * @example
 * const r: CreateOrderValidation = validateCreateOrder(body, ctx);
 * if (!r.ok) console.log(r.code, r.errors.length);
 */
export type CreateOrderValidation =
  | { ok: true; order: NormalisedOrder; warnings: Warning[] }
  | { ok: false; code: CreateOrderProblemCode; errors: FieldError[] };

const UDF_TYPES = new Set(["text", "number", "boolean", "date"]);

function checkContext(ctx: ValidateCreateOrderContext): Map<string, UdfDefinition> {
  if (!isIsoDate(ctx.today)) throw new OrdersError("invalid_argument", "ctx.today must be a YYYY-MM-DD date");
  if (
    ctx.maxAttachments !== undefined &&
    (!Number.isSafeInteger(ctx.maxAttachments) || ctx.maxAttachments < 0)
  ) {
    throw new OrdersError("invalid_argument", "ctx.maxAttachments must be a whole number of at least 0");
  }
  const definitions = new Map<string, UdfDefinition>();
  for (const def of ctx.udfDefinitions) {
    if (typeof def.name !== "string" || !UDF_TYPES.has(def.type)) {
      throw new OrdersError("invalid_argument", `invalid udf definition ${JSON.stringify(def)}`);
    }
    definitions.set(def.name, def);
  }
  return definitions;
}

/**
 * The problem code for a list of errors (decision orders-field-errors): `amount_too_high` or
 * `wik_letter_required` when every error has that one code, `validation_error` otherwise.
 */
function problemCode(errors: ReadonlyArray<FieldError>): CreateOrderProblemCode {
  for (const special of ["amount_too_high", "wik_letter_required"] as const) {
    if (errors.every((e) => e.code === special)) return special;
  }
  return "validation_error";
}

function nullIfBlank(value: string | null | undefined): string | null {
  return hasText(value) ? value : null;
}

function normaliseAddress(a: {
  street: string;
  house_number: string;
  house_number_suffix?: string | null;
  postal_code: string;
  city: string;
  country?: string;
}): NormalisedAddress {
  const country = a.country === undefined ? DEFAULT_COUNTRY : (normaliseCountryCode(a.country) ?? a.country);
  const postal =
    country === DEFAULT_COUNTRY ? (normaliseDutchPostalCode(a.postal_code) ?? a.postal_code) : a.postal_code;
  return {
    street: a.street,
    house_number: a.house_number,
    house_number_suffix: a.house_number_suffix ?? null,
    postal_code: postal,
    city: a.city,
    country,
  };
}

/**
 * The entries of a metadata or udf_fields object as sent, in a new object. Object.fromEntries
 * defines each key as an own property, so `__proto__` stays a key and never sets the prototype, as
 * an assignment (`out[key] = value`) or Object.assign would (decision orders-reserved-keys).
 */
function ownCopy<V>(value: unknown): Record<string, V> {
  return isRecord(value) ? (Object.fromEntries(Object.entries(value)) as Record<string, V>) : {};
}

function normalise(
  input: CreateOrderInput,
  metadata: Record<string, string>,
  udfFields: Record<string, unknown>,
  caseUdfFields: Record<string, UdfValue>,
): NormalisedOrder {
  const debtors: NormalisedDebtor[] = input.debtors.map((d) => {
    const individual = d.type === "individual";
    return {
      type: d.type,
      company_name: d.company_name ?? null,
      // Only for an individual (spec Debtor); a business can only carry blanks here.
      first_name: individual ? nullIfBlank(d.first_name) : null,
      middle_name: individual ? nullIfBlank(d.middle_name) : null,
      last_name: d.last_name ?? null,
      customer_number:
        d.customer_number === undefined || d.customer_number === null
          ? null
          : (normaliseCustomerNumber(d.customer_number) ?? d.customer_number),
      email: d.email ?? null,
      phone: d.phone ?? null,
      address: normaliseAddress(d.address),
    };
  });
  const creditor =
    input.creditor === undefined || input.creditor === null
      ? null
      : input.creditor.id !== undefined
        ? { id: input.creditor.id }
        : { reference: input.creditor.reference as string };
  return {
    type: input.type,
    reference: input.reference ?? null,
    // Spec CreateOrder.title: "when absent the service generates one". A blank title carries no
    // title, so it counts as absent and one is generated (decision orders-nullability).
    title: nullIfBlank(input.title),
    description: input.description ?? null,
    creditor,
    // From the body: zod's output of a record has no `__proto__` key (see validateCreateOrder).
    metadata,
    udf_fields: udfFields,
    case_udf_fields: caseUdfFields,
    debtors,
    invoices: input.invoices.map((i) => ({
      invoice_number: i.invoice_number,
      invoice_date: i.invoice_date,
      due_date: dueDateOf(i),
      payment_term_days: i.payment_term_days ?? null,
      amount_cents: i.amount_cents,
      description: i.description ?? null,
    })),
    attachments: (input.attachments ?? []).map((a) => ({
      filename: a.filename,
      content_base64: a.content_base64,
      document_type: a.document_type ?? null,
    })),
  };
}

/**
 * Validates a POST /orders body against every rule of the spec's CreateOrder, Debtor, Address,
 * Invoice and Attachment tables and its Limits table, and normalises it for the engine. Nothing
 * is stored and nothing is thrown for bad input: all violations come back together, each with the
 * exact path (`invoices[0].amount_cents`, `debtors[1].address.postal_code`) and a stable code.
 *
 * Rules beyond the field tables: `wik_letter_required` for `incasso` against an individual without
 * a `wik_letter` attachment (spec POST /orders rule 4); invoice_date not after `ctx.today`; at most
 * `ctx.maxAttachments` attachments; udf_fields typed by `ctx.udfDefinitions`, unknown keys skipped
 * with warning `udf_field_unknown`; unknown fields tolerated with warning `unknown_field`.
 *
 * The problem code is `amount_too_high` or `wik_letter_required` when all errors carry that code,
 * `validation_error` otherwise (decision orders-field-errors). Attachment content is not looked
 * at here; @incasso/pdf-guard judges it afterwards.
 *
 * @throws {OrdersError} `invalid_argument` when `ctx` itself is malformed (a programming error).
 * @example
 * const r = validateCreateOrder(
 *   {
 *     type: "pre-incasso",
 *     debtors: [{ type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries",
 *       address: { street: "Teststraat", house_number: "10", postal_code: "9999zz", city: "Testdorp" } }],
 *     invoices: [{ invoice_number: "F-1", invoice_date: "2026-10-01", payment_term_days: 14, amount_cents: 125000 }],
 *   },
 *   { today: "2026-11-21", udfDefinitions: [] },
 * );
 * // r.ok === true; r.order.invoices[0].due_date === "2026-10-15";
 * // r.order.debtors[0].address.postal_code === "9999 ZZ"; r.order.debtors[0].address.country === "NL"
 */
export function validateCreateOrder(body: unknown, ctx: ValidateCreateOrderContext): CreateOrderValidation {
  const definitions = checkContext(ctx);
  const maxAttachments = ctx.maxAttachments ?? DEFAULT_ATTACHMENT_LIMITS.maxAttachments;
  if (!isRecord(body)) {
    const parsed = CreateOrderSchema.safeParse(body);
    const errors = parsed.success ? [] : issuesToFieldErrors(parsed.error.issues, body);
    return { ok: false, code: "validation_error", errors };
  }

  const errors: FieldError[] = [];
  const later: FieldError[] = [];
  // An oversized collection gets one count error and its entries are not judged one by one, as
  // zod does for arrays over their maximum: the number of errors stays bounded whatever is sent.
  const copy: Record<string, unknown> = { ...body };
  const meta = body.metadata;
  if (isRecord(meta) && Object.keys(meta).length > ORDER_LIMITS.metadata.maxKeys) {
    later.push(tooManyKeys("metadata", Object.keys(meta).length, ORDER_LIMITS.metadata.maxKeys));
    copy.metadata = {};
  }
  // zod's record parsing skips a `__proto__` key altogether, neither judging nor keeping it (so it
  // cannot reach the prototype of the object zod builds). In metadata it is a key like any other
  // (decision orders-reserved-keys): its value is judged by the same rule here, and the metadata
  // is copied from the body, not from zod's output.
  if (isRecord(meta) && copy.metadata === meta && Object.hasOwn(meta, "__proto__")) {
    const value = Object.getOwnPropertyDescriptor(meta, "__proto__")?.value;
    const checked = MetadataSchema.valueType.safeParse(value);
    if (!checked.success) {
      const issues = checked.error.issues.map((i) => ({ ...i, path: ["metadata", "__proto__", ...i.path] }));
      later.push(...issuesToFieldErrors(issues, body));
    }
  }
  let udfKnown: Record<string, UdfValue> = {};
  const udfWarnings: Warning[] = [];
  const udf = body.udf_fields;
  if (isRecord(udf)) {
    // The definitions judge udf_fields here rather than the schema: unknown keys are skipped
    // without judging their value (spec: "an unknown key is skipped").
    const count = Object.keys(udf).length;
    if (count > ORDER_LIMITS.udfFields.maxKeys) {
      later.push(tooManyKeys("udf_fields", count, ORDER_LIMITS.udfFields.maxKeys));
    } else {
      const checked = checkUdfFields(udf, definitions);
      later.push(...checked.errors);
      udfWarnings.push(...checked.warnings);
      udfKnown = checked.known;
    }
    copy.udf_fields = {};
  }
  const attachments = body.attachments;
  if (Array.isArray(attachments) && attachments.length > maxAttachments) {
    later.push({
      field: "attachments",
      code: "too_many_attachments",
      message: `must have at most ${maxAttachments} items, got ${attachments.length}`,
    });
    copy.attachments = [];
  }

  const parsed = CreateOrderSchema.safeParse(copy);
  if (!parsed.success) errors.push(...issuesToFieldErrors(parsed.error.issues, copy));
  errors.push(...later, ...businessRuleErrors(body, ctx.today));

  if (!parsed.success || errors.length > 0) {
    const all = unique(errors);
    return { ok: false, code: problemCode(all), errors: all };
  }
  const order = normalise(parsed.data, ownCopy(meta), ownCopy(udf), udfKnown);
  return { ok: true, order, warnings: [...unknownFieldWarnings(body), ...udfWarnings] };
}

function tooManyKeys(field: string, count: number, max: number): FieldError {
  return { field, code: "too_many_keys", message: `must have at most ${max} keys, got ${count}` };
}

// The rules the schema cannot hold: today's date, and rule 4 across debtors and attachments. The
// rules that tie an object's fields together are refinements of the schemas and ran in the one
// parse above (internal/cross-field-rules.ts).
function businessRuleErrors(body: Record<string, unknown>, today: string): FieldError[] {
  const errors: FieldError[] = [];
  const add = (prefix: PropertyKey[], issues: RuleIssue[]) => {
    for (const i of issues)
      errors.push({ field: formatFieldPath([...prefix, ...i.path]), code: i.code, message: i.message });
  };
  const debtors = body.debtors;
  const invoices = body.invoices;
  if (Array.isArray(invoices) && invoices.length <= ORDER_LIMITS.invoicesPerOrder.max) {
    invoices.forEach((invoice, i) => {
      // Spec Invoice.invoice_date: "not in the future", measured against today in Europe/Amsterdam.
      // ISO dates of four-digit years compare correctly as strings.
      if (isRecord(invoice) && isIsoDate(invoice.invoice_date) && invoice.invoice_date > today) {
        add(
          ["invoices", i],
          [{ path: ["invoice_date"], code: "date_in_future", message: `must not be after today (${today})` }],
        );
      }
    });
  }
  // Spec POST /orders rule 4 and Errors: `incasso` against an `individual` debtor needs an
  // attachment with document_type `wik_letter`, the 14-day letter of art. 6:96 lid 6 BW.
  const consumer = Array.isArray(debtors) && debtors.some((d) => isRecord(d) && d.type === "individual");
  if (body.type === "incasso" && consumer) {
    const list = Array.isArray(body.attachments) ? body.attachments : [];
    if (!list.some((a) => isRecord(a) && a.document_type === "wik_letter")) {
      errors.push({
        field: "attachments",
        code: "wik_letter_required",
        message: "an incasso order against an individual needs an attachment with document_type wik_letter",
      });
    }
  }
  return errors;
}

/**
 * Drops repeated (field, code) pairs: zod reports one value more than once when it breaks two
 * bounds of one kind (a number over both the safe-integer bound of z.int() and the field's maximum).
 */
function unique(errors: ReadonlyArray<FieldError>): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
