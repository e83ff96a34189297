import { z } from "zod";

/**
 * Request body of POST /tools/wik (spec "POST /tools/wik"): `amount_cents` integer >= 1,
 * `debtor_type` `consumer` (default) or `business`, optional `due_date` `YYYY-MM-DD` (a real
 * calendar date), `include_vat` boolean (default false). Unknown fields are tolerated and
 * dropped (spec, Versioning 3), not refused.
 *
 * @example
 * ```ts
 * import { WikRequestSchema } from "@incasso/wik";
 * WikRequestSchema.parse({ amount_cents: 125_000, due_date: "2025-01-31" });
 * // { amount_cents: 125000, due_date: "2025-01-31", debtor_type: "consumer", include_vat: false }
 * ```
 */
export const WikRequestSchema = z
  .object({
    amount_cents: z.int().min(1).describe("Principal in euro cents; minimum 1."),
    debtor_type: z
      .enum(["consumer", "business"])
      .default("consumer")
      .describe(
        "consumer: statutory interest (art. 6:119 BW); business: statutory commercial interest (art. 6:119a BW).",
      ),
    due_date: z.iso
      .date()
      .optional()
      .describe(
        "Last day on which payment was on time, YYYY-MM-DD; interest runs from the next day. Absent: no interest.",
      ),
    include_vat: z.boolean().default(false).describe("Add 21% VAT on the collection costs."),
  })
  .meta({
    id: "WikRequest",
    description: "Principal and options for the statutory collection-cost and interest calculator.",
  });

/**
 * The request after validation: defaults applied.
 *
 * @example
 * ```ts
 * import type { WikRequest } from "@incasso/wik";
 * const request: WikRequest = { amount_cents: 125_000, debtor_type: "consumer", include_vat: false };
 * ```
 */
export type WikRequest = z.output<typeof WikRequestSchema>;

/**
 * The request as a client may send it: defaulted fields optional.
 *
 * @example
 * ```ts
 * import type { WikRequestInput } from "@incasso/wik";
 * const request: WikRequestInput = { amount_cents: 125_000 };
 * ```
 */
export type WikRequestInput = z.input<typeof WikRequestSchema>;
