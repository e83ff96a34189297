import { z } from "zod";
import { creditorRules, reportTo } from "./internal/cross-field-rules.js";
import { whenObject } from "./internal/schema-parts.js";

/**
 * The optional `creditor` object of a CreateOrder: exactly one of `id` (from the creditor list)
 * or `reference` (the client's own identifier). The spec shows no length limit or format for
 * either, so only non-blank strings are required. Whether creditor management is on for the key
 * (403 `creditor_feature_disabled`) and whether the creditor exists (422 `unknown_creditor`) is for
 * the engine to decide; this schema checks the shape only.
 *
 * @example
 * CreditorRefSchema.parse({ reference: "ACME-NL" });
 */
export const CreditorRefSchema = z
  .object({
    id: z.string().optional().describe("Creditor id from the creditor list."),
    reference: z.string().optional().describe("The client's own identifier of the creditor."),
  })
  .superRefine((creditor, ctx) => reportTo(ctx, creditorRules(creditor)), whenObject)
  .meta({
    id: "CreditorRef",
    description:
      "The creditor on whose behalf the order is submitted; only with creditor management activated. " +
      "Exactly one of id or reference.",
  });

/**
 * A creditor reference as the client sends it.
 *
 * @example
 * const c: CreditorRefInput = { id: "cred_1" };
 */
export type CreditorRefInput = z.input<typeof CreditorRefSchema>;
