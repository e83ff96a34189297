import { z } from "zod";
import { ATTACHMENT_ISSUE_CODES } from "./errors.js";

/**
 * The values of `document_type` (spec Attachment: `invoice`, `wik_letter`, `other`, or null).
 *
 * @example
 * DocumentTypeSchema.parse("wik_letter"); // "wik_letter"
 */
export const DocumentTypeSchema = z
  .enum(["invoice", "wik_letter", "other"])
  .describe("What the attachment is: an invoice, the 14-day letter (wik_letter) or something else.");

/**
 * One attachment of a CreateOrder, as the client sends it (spec Attachment). The schema checks the
 * field rules only; whether the content is a usable PDF is judged by {@link checkAttachments}.
 *
 * @example
 * AttachmentSchema.parse({ filename: "factuur.pdf", content_base64: "JVBERi0xLjcK...", document_type: "invoice" });
 */
export const AttachmentSchema = z
  .object({
    filename: z
      .string()
      .min(1)
      .max(120)
      .describe(
        "Max 120 characters; preferably ending in .pdf. The content decides, not the extension; the stored name is normalised to end in .pdf.",
      ),
    content_base64: z
      .string()
      .min(1)
      .describe("The PDF as standard base64 (RFC 4648 §4) with padding and without a data: prefix."),
    document_type: DocumentTypeSchema.nullable().optional(),
  })
  .meta({
    id: "Attachment",
    description:
      "A PDF attachment of an order. It must be a valid PDF that opens without a password; at most 10 MB per file and 25 MB per order, decoded.",
  });

/**
 * An attachment as sent by the client.
 *
 * @example
 * const a: AttachmentInput = { filename: "brief.pdf", content_base64: "JVBERi0=", document_type: "wik_letter" };
 */
export type AttachmentInput = z.input<typeof AttachmentSchema>;

/**
 * One entry of a 422 problem's `errors[]` produced by this package (spec section Errors).
 *
 * @example
 * AttachmentErrorSchema.parse({ field: "attachments[0].content_base64", code: "not_pdf", message: "The file is not a PDF." });
 */
export const AttachmentErrorSchema = z
  .object({
    field: z.string().describe("Path of the field, such as attachments[2].content_base64."),
    code: z.enum(ATTACHMENT_ISSUE_CODES).describe("Stable reason for the refusal."),
    message: z.string().describe("Explanation for the client's developer."),
  })
  .meta({
    id: "AttachmentError",
    description: "Why an attachment or the attachment list was refused; an item of the problem's errors[].",
  });
