import { z } from "zod";

/**
 * One entry of a 422 problem's `errors[]` (spec section Errors): the path of the field in the
 * spec's notation (`invoices[0].amount_cents`, `debtors[1].address.postal_code`), a stable code and
 * an explanation for the client's developer (in English; warnings are in Dutch).
 *
 * @example
 * const e: FieldError = { field: "invoices[0].amount_cents", code: "amount_too_high", message: "must be at most 100000000000" };
 */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * Schema of {@link FieldError}, for the OpenAPI document of a 422 response.
 *
 * @example
 * OrderFieldErrorSchema.parse({ field: "debtors[0].last_name", code: "required", message: "is required" });
 */
export const OrderFieldErrorSchema = z
  .object({
    field: z
      .string()
      .describe("Path of the field, such as invoices[0].amount_cents or debtors[1].address.postal_code."),
    code: z
      .string()
      .describe(
        "Stable reason, for example required, invalid_type, too_long, invalid_format, amount_too_high, wik_letter_required.",
      ),
    message: z.string().describe("Explanation for the client's developer."),
  })
  .meta({ id: "OrderFieldError", description: "Why one field of an order request was refused." });
