import { z } from "zod";

/**
 * The warning codes the spec names (section Warning), and `pdf_active_content`, ours: an attachment
 * holds active content (decision pdf-guard-active-content), and `ai_invoice_paid`, ours: the declared
 * amount is an invoice's total but the invoice shows it paid in full or in part (decision
 * pdf-guard-invoice-reading), both added under the spec's Versioning rule
 * that new warning codes are a non-breaking addition. Clients must tolerate codes that are not in
 * this list, so the schema types `code` as a plain string.
 *
 * @example
 * WARNING_CODES.includes("udf_field_unknown"); // true
 */
export const WARNING_CODES = [
  "ai_invoice_mismatch",
  "ai_document_mismatch",
  "attached_to_existing_case",
  "multiple_open_cases",
  "attachment_upload_failed",
  "claim_attach_failed",
  "debtor_address_failed",
  "unknown_field",
  "udf_field_unknown",
  "wik_letter_detected",
  "wik_letter_incomplete",
  "test_mode",
  "pdf_active_content",
  "ai_invoice_paid",
] as const;

/**
 * One of {@link WARNING_CODES}.
 *
 * @example
 * const code: WarningCode = "test_mode";
 */
export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * A non-blocking warning (spec Warning): `code`, a `message` in Dutch, and the `invoice_number`
 * when the warning concerns one invoice (null otherwise).
 *
 * @example
 * WarningSchema.parse({ code: "udf_field_unknown", message: "Maatwerkveld \"kleur\" is onbekend en overgeslagen.", invoice_number: null });
 */
export const WarningSchema = z
  .object({
    code: z
      .string()
      .describe(
        `Warning code. Known codes: ${WARNING_CODES.join(", ")}. Clients must tolerate codes not in this list. ` +
          "`pdf_active_content`: an attachment holds JavaScript, a Launch action, an embedded file or bytes before its %PDF- header; it was accepted as sent, and the message names it by filename and attachments[i]. A server may be set to refuse such files instead (422 invalid_attachment, errors[].code pdf_active_content). " +
          "`ai_invoice_paid`: the declared amount equals an attached invoice's total, but the invoice shows it paid in full or in part (an amount due below the total); the declared amount was kept.",
      ),
    message: z.string().describe("Explanation in Dutch."),
    invoice_number: z
      .string()
      .nullable()
      .optional()
      .describe("The invoice the warning concerns; null or absent when it concerns no single invoice."),
  })
  .meta({
    id: "Warning",
    description: "A non-blocking warning; the order is processed regardless.",
  });

/**
 * A warning as this package produces it: `invoice_number` is always present, null when the
 * warning concerns no single invoice.
 *
 * @example
 * const w: Warning = { code: "test_mode", message: "Testmodus: er is geen dossier aangemaakt.", invoice_number: null };
 */
export interface Warning {
  code: string;
  message: string;
  invoice_number: string | null;
}
