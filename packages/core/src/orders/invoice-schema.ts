import { z } from "zod";
import { invoiceRules, reportTo } from "./internal/cross-field-rules.js";
import { isoDate, optionalText, requiredText, whenObject } from "./internal/schema-parts.js";
import { ORDER_LIMITS } from "./limits.js";

const L = ORDER_LIMITS.length;
const MAX_AMOUNT = ORDER_LIMITS.amountCents.max;

// Spec Invoice.amount_cents: "above the maximum the error code is amount_too_high", so the
// maximum is a custom issue carrying that code (decision orders-field-errors), not zod's `max`,
// whose issue has no code of its own. A whole number is checked here too rather than by z.int():
// z.int() refuses a number above 2^53 - 1 with its own bound, which is not a limit of the API, so
// every amount above the maximum gets the one code. The JSON Schema stays that of an integer from
// 1 to the maximum.
const amountCents = z
  .number()
  .check((ctx) => {
    if (!Number.isInteger(ctx.value)) {
      ctx.issues.push({
        code: "custom",
        message: "must be a whole number",
        input: ctx.value,
        params: { code: "not_integer" },
        abort: true,
      });
    }
  })
  .min(ORDER_LIMITS.amountCents.min)
  .check((ctx) => {
    if (ctx.value > MAX_AMOUNT) {
      ctx.issues.push({
        code: "custom",
        message: `must be at most ${MAX_AMOUNT} cents`,
        input: ctx.value,
        params: { code: "amount_too_high" },
      });
    }
  })
  .meta({ type: "integer", maximum: MAX_AMOUNT });

/**
 * One invoice of an order (spec Invoice). Exactly one of `due_date` and `payment_term_days` is
 * given; `invoice_date` must not be in the future, which needs today's date and is therefore
 * checked by {@link validateCreateOrder}, not by this schema.
 *
 * @example
 * InvoiceSchema.parse({ invoice_number: "F-2026-001", invoice_date: "2026-09-01", payment_term_days: 30, amount_cents: 125000 });
 */
export const InvoiceSchema = z
  .object({
    invoice_number: requiredText(L.invoice_number).describe("Invoice number, max 50 characters."),
    invoice_date: isoDate().describe("Invoice date (YYYY-MM-DD); not in the future."),
    due_date: isoDate()
      .nullable()
      .optional()
      .describe("Due date (YYYY-MM-DD). Give exactly one of due_date and payment_term_days."),
    payment_term_days: z
      .int()
      .min(ORDER_LIMITS.paymentTermDays.min)
      .max(ORDER_LIMITS.paymentTermDays.max)
      .nullable()
      .optional()
      .describe(
        "Payment term in days after the invoice date, 0 to 365; the service computes the due date. " +
          "Give exactly one of due_date and payment_term_days.",
      ),
    amount_cents: amountCents.describe(
      "Outstanding amount including VAT in euro cents, 1 to 100000000000; above the maximum the error code is amount_too_high.",
    ),
    description: optionalText(L.invoice_description)
      .nullable()
      .optional()
      .describe("Description, max 500 characters."),
  })
  .superRefine((invoice, ctx) => reportTo(ctx, invoiceRules(invoice)), whenObject)
  .meta({ id: "Invoice", description: "An invoice of the claim." });

/**
 * An invoice as the client sends it.
 *
 * @example
 * const i: InvoiceInput = { invoice_number: "F-1", invoice_date: "2026-09-01", due_date: "2026-10-01", amount_cents: 100 };
 */
export type InvoiceInput = z.input<typeof InvoiceSchema>;
