import { z } from "zod";

// Same limits and character rule as the order's own `reference` (spec: CreateOrder, max 100) and a
// business debtor's `company_name` (max 200): a creditor is referenced and named the same way.
const NO_CONTROL = /^\P{Cc}*$/u;

/**
 * Body of POST /creditors: a creditor under the organisation, identified by the client's own
 * `reference` (spec: Creditor management; shape recorded in docs/decisions/creditors-shapes.md).
 *
 * @example
 * CreateCreditorRequestSchema.parse({ reference: "ACME-1", name: "Acme Holding BV" });
 */
export const CreateCreditorRequestSchema = z
  .object({
    reference: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(NO_CONTROL, "must not contain control characters")
      .describe("The client's own identifier of the creditor; unique within the account"),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(NO_CONTROL, "must not contain control characters")
      .describe("The creditor's name, as it appears on the case"),
  })
  .meta({ id: "CreateCreditorRequest", description: "A new creditor under the account." });

/** The body of POST /creditors, after validation. */
export type CreateCreditorRequest = z.output<typeof CreateCreditorRequestSchema>;

/**
 * A creditor as the API returns it.
 *
 * @example
 * CreditorSchema.parse({ id: "cred_0123456789abcdef", object: "creditor", reference: "ACME-1", name: "Acme Holding BV", created_at: "2026-11-21T10:00:00.000Z" });
 */
export const CreditorSchema = z
  .object({
    id: z
      .string()
      .regex(/^cred_[0-9a-f]{16}$/)
      .describe("`cred_` followed by 16 lowercase hex characters; usable as `creditor.id` in an order"),
    object: z.literal("creditor"),
    reference: z.string().describe("The client's own identifier; usable as `creditor.reference` in an order"),
    name: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Creditor", description: "A creditor on whose behalf the client may submit orders." });

/** A creditor on the wire. */
export type Creditor = z.output<typeof CreditorSchema>;

/**
 * Query of GET /creditors: keyset pagination like GET /orders (spec: limit 1 to 100, default 25).
 *
 * @example
 * ListCreditorsQuerySchema.parse({ limit: "10" }); // { limit: 10 }
 */
export const ListCreditorsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(25).describe("1 to 100, default 25"),
    cursor: z.string().max(200).optional().describe("The `next_cursor` of the previous page"),
  })
  .meta({ id: "ListCreditorsQuery", description: "Paging of the creditor list." });

/** The query of GET /creditors, after validation. */
export type ListCreditorsQuery = z.output<typeof ListCreditorsQuerySchema>;

/**
 * Response of GET /creditors: oldest first, in the same list shape as OrderList.
 *
 * @example
 * CreditorListSchema.parse({ object: "list", data: [], has_more: false, next_cursor: null });
 */
export const CreditorListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(CreditorSchema),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "CreditorList", description: "The creditors of the account, oldest first." });

/** The creditor list on the wire. */
export type CreditorList = z.output<typeof CreditorListSchema>;
