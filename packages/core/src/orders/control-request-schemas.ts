import { z } from "zod";
import { isoDate } from "./internal/schema-parts.js";
import { ORDER_LIMITS } from "./limits.js";
import { OrderIdSchema } from "./order-id.js";
import { TimestampSchema } from "./order-schema.js";
import { OrderActionTypeSchema } from "./order-status-schema.js";

const reason = () =>
  z
    .string()
    .max(ORDER_LIMITS.controlReason)
    .optional()
    .describe("Note for the handler, max 1000 characters.");

/**
 * The optional body of POST /orders/{orderId}/hold (spec: "object with reason (string, max 1000)").
 *
 * @example
 * HoldRequestSchema.parse({ reason: "Debiteur heeft een betalingsregeling voorgesteld." });
 */
export const HoldRequestSchema = z
  .object({ reason: reason() })
  .meta({ id: "HoldRequest", description: "Requests a pause of the collection; the body is optional." });

/**
 * The optional body of POST /orders/{orderId}/withdraw.
 *
 * @example
 * WithdrawRequestSchema.parse({});
 */
export const WithdrawRequestSchema = z.object({ reason: reason() }).meta({
  id: "WithdrawRequest",
  description:
    "Requests withdrawal; can affect the no-cure-no-pay fee arrangement. A handler assesses and acts. The body is optional.",
});

/**
 * The body of POST /orders/{orderId}/payments: a payment the debtor made directly to the client.
 *
 * @example
 * PaymentReportSchema.parse({ amount_cents: 5000, payment_date: "2026-11-20" });
 */
export const PaymentReportSchema = z
  .object({
    amount_cents: z.int().min(1).describe("Amount received in euro cents, at least 1."),
    payment_date: isoDate().optional().describe("Date of receipt (YYYY-MM-DD); default today."),
    reason: reason(),
  })
  .meta({ id: "PaymentReport", description: "Reports that the debtor paid the client directly." });

/**
 * The response of the three control requests, status 202 (spec OrderAction).
 *
 * @example
 * OrderActionSchema.parse({
 *   id: "ord_0123456789abcdef", object: "order_action", action: "payments", status: "requested",
 *   case: { case_number: "2026-000123" }, amount_cents: 5000, payment_date: "2026-11-20",
 *   message: "De betaling is doorgegeven aan de behandelaar.", created_at: "2026-11-21T10:15:00Z",
 * });
 */
export const OrderActionSchema = z
  .object({
    id: OrderIdSchema.describe("The order id."),
    object: z.literal("order_action"),
    action: OrderActionTypeSchema,
    status: z.literal("requested"),
    case: z.object({ case_number: z.string().nullable() }),
    amount_cents: z.int().optional().describe("Only for a payment report."),
    payment_date: z.iso.date().optional().describe("Only for a payment report."),
    message: z.string(),
    created_at: TimestampSchema,
  })
  .meta({ id: "OrderAction", description: "A control request, stored as a task for a handler on the case." });
