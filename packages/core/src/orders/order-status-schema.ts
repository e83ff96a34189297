import { z } from "zod";
import { OrderTypeSchema } from "./create-order-schema.js";
import { ORDER_LIMITS } from "./limits.js";
import { OrderIdSchema } from "./order-id.js";
import { OrderModeSchema, TimestampSchema } from "./order-schema.js";
import { WarningSchema } from "./warnings.js";

/**
 * The three control requests (spec OrderAction.action).
 *
 * @example
 * OrderActionTypeSchema.parse("payments");
 */
export const OrderActionTypeSchema = z.enum(["hold", "withdraw", "payments"]);

/**
 * One earlier control request in OrderStatus.actions (spec OrderStatus.actions items: action,
 * status, reason, amount_cents, created_at). `amount_cents` is present for a payment report only.
 *
 * @example
 * OrderStatusActionSchema.parse({ action: "hold", status: "requested", reason: null, created_at: "2026-11-21T10:15:00Z" });
 */
export const OrderStatusActionSchema = z
  .object({
    action: OrderActionTypeSchema,
    status: z.string().describe("requested when new; later statuses are set by the handler."),
    reason: z.string().nullable(),
    amount_cents: z.int().optional().describe("The reported amount; only for a payment report."),
    created_at: TimestampSchema,
  })
  .meta({ id: "OrderStatusAction", description: "An earlier control request on the order." });

/**
 * The response of GET /orders/{orderId} (spec OrderStatus).
 *
 * @example
 * OrderStatusSchema.parse({
 *   id: "ord_0123456789abcdef", object: "order", mode: "live", type: "incasso", reference: null,
 *   case: { case_number: "2026-000123", new: true, status: "Nieuw", open: true },
 *   invoice_count: 1, total_amount_cents: 125000, warnings: [], actions: [], created_at: "2026-11-21T10:15:00Z",
 * });
 */
export const OrderStatusSchema = z
  .object({
    id: OrderIdSchema,
    object: z.literal("order"),
    mode: OrderModeSchema,
    type: OrderTypeSchema,
    reference: z.string().nullable(),
    case: z.object({
      case_number: z.string().nullable(),
      new: z.boolean().describe("Reflects the moment of submission."),
      status: z
        .string()
        .nullable()
        .describe("Current case status, for example Nieuw, In behandeling, Gesloten."),
      open: z.boolean().describe("Whether the case is still open."),
      balance_due_cents: z
        .int()
        .optional()
        .describe(
          "Outstanding balance including collection costs and interest; present only once the case is in treatment.",
        ),
    }),
    invoice_count: z.int().min(ORDER_LIMITS.invoicesPerOrder.min),
    total_amount_cents: z.int().describe("Submitted principal in euro cents."),
    warnings: z.array(WarningSchema).describe("The submission-time warnings, repeated."),
    actions: z.array(OrderStatusActionSchema).describe("Earlier control requests, newest first."),
    created_at: TimestampSchema,
  })
  .meta({ id: "OrderStatus", description: "An order with the live status of its case." });

/**
 * An OrderStatus response.
 *
 * @example
 * const s: OrderStatus = OrderStatusSchema.parse(json);
 */
export type OrderStatus = z.output<typeof OrderStatusSchema>;
