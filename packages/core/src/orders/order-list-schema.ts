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

// A query-string limit is written in the digits 0-9 only. Number() alone would also take "0x10",
// "1e1", " 5 " and "" (as 0), none of which a client means as a page size (decision
// orders-list-query).
const DIGITS = /^[0-9]+$/;

// The range is checked before the whole-number check, and a value over the maximum stops there:
// z.int() alone would also report its safe-integer bound for "99999999999999999999", a second
// too_large naming a limit the API does not have.
const PageSizeNumber = z
  .number()
  .min(ORDER_LIMITS.pageSize.min)
  .max(ORDER_LIMITS.pageSize.max, { abort: true })
  .int();

/**
 * `limit` as a query string gives it, or as a number: a digit string is converted, any other
 * string is refused with `not_integer`, and the number must be a whole number from 1 to 100. A
 * preprocess rather than z.coerce so the raw text can be checked; `prefault` rather than
 * `default` so the JSON Schema of the input still shows the default of 25.
 */
const PageSizeSchema = z
  .preprocess((value, ctx) => {
    if (typeof value !== "string") return value;
    if (DIGITS.test(value)) return Number(value);
    ctx.addIssue({
      code: "custom",
      message: "must be a whole number written in the digits 0-9",
      params: { code: "not_integer" },
    });
    return z.NEVER;
  }, PageSizeNumber)
  .prefault(ORDER_LIMITS.pageSize.default);

/**
 * The query of GET /orders (spec GET /orders), for query strings: `limit` is converted from its
 * string form, which must be digits only. Parse with {@link parseListOrdersQuery} to get errors in
 * the spec's form and the cursor decoded.
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
    limit: PageSizeSchema.describe("Page size, 1 to 100, default 25; digits only."),
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
