import { z } from "zod";
import { OrderTypeSchema } from "./create-order-schema.js";
import { ORDER_LIMITS } from "./limits.js";
import { OrderIdSchema } from "./order-id.js";
import { OrderCaseSchema, OrderModeSchema, TimestampSchema } from "./order-schema.js";

/**
 * One item of an OrderList (spec OrderList.data).
 *
 * @example
 * OrderListItemSchema.parse({
 *   id: "ord_0123456789abcdef", object: "order", mode: "live", type: "incasso", reference: "R-1",
 *   case: { case_number: "2026-000123", new: true }, debtors_summary: "Jan de Vries, Els de Vries",
 *   invoice_count: 2, total_amount_cents: 250000, created_at: "2026-11-21T10:15:00.000Z",
 * });
 */
export const OrderListItemSchema = z
  .object({
    id: OrderIdSchema,
    object: z.literal("order"),
    mode: OrderModeSchema,
    type: OrderTypeSchema,
    reference: z.string().nullable(),
    case: OrderCaseSchema,
    debtors_summary: z.string().describe("The debtors' names, comma-separated."),
    invoice_count: z.int().min(ORDER_LIMITS.invoicesPerOrder.min),
    total_amount_cents: z.int().describe("Submitted principal in euro cents."),
    created_at: TimestampSchema,
  })
  .meta({ id: "OrderListItem", description: "An order as listed by GET /orders." });

/**
 * The response of GET /orders (spec OrderList): newest first, with cursor pagination.
 *
 * @example
 * OrderListSchema.parse({ object: "list", data: [], has_more: false, next_cursor: null });
 */
export const OrderListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(OrderListItemSchema),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .describe("Pass as cursor for the next page; null when there is no next page."),
  })
  .meta({ id: "OrderList", description: "A page of orders, newest first." });

/**
 * The query of GET /orders (spec GET /orders), for query strings: `limit` is coerced from its
 * string form. Parse with {@link parseListOrdersQuery} to get errors in the spec's form and the
 * cursor decoded.
 *
 * @example
 * ListOrdersQuerySchema.parse({ limit: "10", type: "incasso" }); // { limit: 10, type: "incasso" }
 */
export const ListOrdersQuerySchema = z
  .object({
    case_number: z.string().optional().describe("Only orders with this case number."),
    reference: z.string().optional().describe("Only orders with this client reference."),
    customer_number: z.string().optional().describe("Only orders with a debtor with this customer number."),
    type: OrderTypeSchema.optional().describe("Only orders of this type."),
    limit: z.coerce
      .number()
      .int()
      .min(ORDER_LIMITS.pageSize.min)
      .max(ORDER_LIMITS.pageSize.max)
      .default(ORDER_LIMITS.pageSize.default)
      .describe("Page size, 1 to 100, default 25."),
    cursor: z.string().optional().describe("The next_cursor of the previous page."),
  })
  .meta({ id: "ListOrdersQuery", description: "Filters and paging of GET /orders." });

/**
 * The parsed query of GET /orders.
 *
 * @example
 * const q: ListOrdersQuery = { limit: 25 };
 */
export type ListOrdersQuery = z.output<typeof ListOrdersQuerySchema>;
