import { z } from "zod";
import { OrderTypeSchema } from "./create-order-schema.js";
import { ORDER_LIMITS } from "./limits.js";
import { OrderIdSchema } from "./order-id.js";
import { WarningSchema } from "./warnings.js";

/**
 * `live` (created with a live key, has a case) or `test` (test key, no case).
 *
 * @example
 * OrderModeSchema.parse("test");
 */
export const OrderModeSchema = z
  .enum(["live", "test"])
  .describe("live: created a case; test: validated only, no case.");

/**
 * An ISO 8601 date-time as the API writes timestamps (spec: "timestamps are ISO 8601 date-times").
 *
 * @example
 * TimestampSchema.parse("2026-11-21T10:15:00.000Z");
 */
export const TimestampSchema = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time.");

/**
 * The `case` object of an Order (spec Order: case.case_number, case.new).
 *
 * @example
 * OrderCaseSchema.parse({ case_number: null, new: true });
 */
export const OrderCaseSchema = z.object({
  case_number: z.string().nullable().describe("Case number; null in test mode."),
  new: z.boolean().describe("false when the invoices were added to an existing open case."),
});

/**
 * The response of POST /orders, status 201 (spec Order).
 *
 * @example
 * OrderSchema.parse({
 *   id: "ord_0123456789abcdef", object: "order", mode: "test", type: "pre-incasso", reference: null,
 *   case: { case_number: null, new: true }, debtors: [{ name: "Test B.V.", customer_number: null }],
 *   invoice_count: 1, total_amount_cents: 125000, metadata: {}, udf_fields: {},
 *   warnings: [{ code: "test_mode", message: "Testmodus: er is geen dossier aangemaakt.", invoice_number: null }],
 *   created_at: "2026-11-21T10:15:00.000Z",
 * });
 */
export const OrderSchema = z
  .object({
    id: OrderIdSchema,
    object: z.literal("order"),
    mode: OrderModeSchema,
    type: OrderTypeSchema,
    reference: z.string().nullable().describe("The client's reference, echoed."),
    case: OrderCaseSchema,
    debtors: z
      .array(
        z.object({
          name: z.string().describe("Company name, or first, middle and last name of an individual."),
          customer_number: z.string().nullable(),
        }),
      )
      .describe("The debtors in the order of the request."),
    invoice_count: z.int().min(ORDER_LIMITS.invoicesPerOrder.min),
    total_amount_cents: z
      .int()
      .describe("Sum of the invoices as supplied, excluding collection costs and interest, in euro cents."),
    metadata: z.record(z.string(), z.string()).describe("Echoed unchanged."),
    udf_fields: z.record(z.string(), z.unknown()).describe("Echoed unchanged."),
    warnings: z.array(WarningSchema).describe("Non-blocking; the order is processed regardless."),
    created_at: TimestampSchema,
  })
  .meta({
    id: "Order",
    description:
      "A submitted order (201). In test mode mode is test, case.case_number is null and a warning test_mode is present.",
  });

/**
 * An Order response.
 *
 * @example
 * const o: Order = OrderSchema.parse(json);
 */
export type Order = z.output<typeof OrderSchema>;
