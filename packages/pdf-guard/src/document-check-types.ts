import { z } from "zod";
import type { PdfGuardLogger } from "./logger.js";

/**
 * The warning codes a document checker may return (spec Warning; meanings per the issue):
 * `ai_invoice_mismatch` a total in a PDF differs from the declared amount (with invoice_number);
 * `ai_invoice_paid` the declared amount is the invoice's total but the invoice shows it (partly)
 * paid (ours, issue 30; a new code is a non-breaking addition under the spec's Versioning);
 * `ai_document_mismatch` documents disagree with each other (address, invoice number, VAT number
 * between invoice and reminder letter); `wik_letter_detected` an attachment looks like a 14-day
 * letter but is not declared as one; `wik_letter_incomplete` a declared 14-day letter lacks what
 * art. 6:96 lid 6 BW requires.
 *
 * @example
 * DOCUMENT_WARNING_CODES.includes("wik_letter_detected"); // true
 */
export const DOCUMENT_WARNING_CODES = [
  "ai_invoice_mismatch",
  "ai_invoice_paid",
  "ai_document_mismatch",
  "wik_letter_detected",
  "wik_letter_incomplete",
] as const;

/**
 * One of {@link DOCUMENT_WARNING_CODES}.
 *
 * @example
 * const code: DocumentWarningCode = "ai_invoice_mismatch";
 */
export type DocumentWarningCode = (typeof DOCUMENT_WARNING_CODES)[number];

/**
 * A warning from a document check, in the spec's Warning shape (`code`, Dutch `message`,
 * `invoice_number` or null).
 *
 * @example
 * DocumentWarningSchema.parse({
 *   code: "ai_invoice_mismatch",
 *   message: "Het totaalbedrag in factuur.pdf (€ 1.250,00) wijkt af van het opgegeven bedrag (€ 1.200,00).",
 *   invoice_number: "F-2026-001",
 * });
 */
export const DocumentWarningSchema = z
  .object({
    code: z.enum(DOCUMENT_WARNING_CODES).describe("Stable warning code."),
    message: z.string().min(1).max(1000).describe("Explanation in Dutch."),
    invoice_number: z
      .string()
      .max(50)
      .nullable()
      .describe("The declared invoice the warning concerns, or null when it concerns no single invoice."),
  })
  .meta({
    id: "DocumentWarning",
    description:
      "A non-blocking warning from comparing the attached PDFs with the declared data; the declared data governs.",
  });

/**
 * A warning from a document check.
 *
 * @example
 * const w: DocumentWarning = { code: "wik_letter_detected", message: "…", invoice_number: null };
 */
export type DocumentWarning = z.infer<typeof DocumentWarningSchema>;

/**
 * The declared debtor as far as the checks need it (spec Debtor and Address, snake_case).
 *
 * @example
 * const d: DeclaredDebtor = {
 *   type: "individual", last_name: "Tester",
 *   address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
 * };
 */
export interface DeclaredDebtor {
  type: "business" | "individual";
  company_name?: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
  customer_number?: string | null;
  address: {
    street: string;
    house_number: string;
    house_number_suffix?: string | null;
    postal_code: string;
    city: string;
    country?: string | null;
  };
}

/**
 * A declared invoice as far as the checks need it (spec Invoice, snake_case).
 *
 * @example
 * const i: DeclaredInvoice = { invoice_number: "F-2026-001", amount_cents: 125000 };
 */
export interface DeclaredInvoice {
  invoice_number: string;
  amount_cents: number;
  invoice_date?: string | null;
  description?: string | null;
}

/**
 * An attachment as the checkers see it: what {@link checkAttachments} accepted.
 *
 * @example
 * const a: CheckableAttachment = { index: 0, filename: "factuur.pdf", document_type: "invoice", text: "…", page_count: 1 };
 */
export interface CheckableAttachment {
  index: number;
  filename: string;
  document_type: "invoice" | "wik_letter" | "other" | null;
  /** Extracted text; empty for a scan without a text layer. */
  text: string;
  page_count: number;
  /** The PDF itself, for checkers that read the file (the OpenAI checker sends it as input_file). */
  bytes?: Uint8Array;
  /**
   * Embedded XML files of the PDF, such as the Factur-X / ZUGFeRD (CII) or UBL data of an
   * e-invoice; the rules checker reads the total, amount due, invoice number, seller VAT number
   * and buyer from them before the text (issue 30).
   */
  embedded_xml?: ReadonlyArray<{ filename: string; xml: string }>;
  /**
   * The 1-based pages whose text was read by OCR (a scan, issue 30 point 5); when there are any,
   * the attachment's amounts are read with strict number grouping. Empty or left out: all text is
   * the PDF's own.
   */
  ocr_pages?: readonly number[];
}

/**
 * What a {@link DocumentChecker} compares: the declared order and its accepted attachments.
 *
 * @example
 * const input: DocumentCheckInput = { debtors: [debtor], invoices: [{ invoice_number: "F-1", amount_cents: 12100 }], attachments };
 */
export interface DocumentCheckInput {
  debtors: DeclaredDebtor[];
  invoices: DeclaredInvoice[];
  attachments: CheckableAttachment[];
}

/**
 * Passed to a checker or title writer on each call.
 *
 * @example
 * const ctx: CheckContext = { signal: AbortSignal.timeout(30_000), logger: consoleLogger };
 */
export interface CheckContext {
  /** Aborted when the caller's time budget is spent; a checker should stop its work. */
  signal: AbortSignal;
  logger: PdfGuardLogger;
}

/**
 * The DocumentChecker port (architecture, "Ports"): compares PDFs with the declared data and
 * returns warnings only. Implementations: {@link createRulesDocumentChecker} (offline, default) and
 * {@link createOpenAIDocumentChecker}. Call through {@link runDocumentCheck}, which turns a failure
 * or time-out into "no warnings" and logs why.
 *
 * @example
 * const checker: DocumentChecker = {
 *   name: "never-warns",
 *   async check() { return []; },
 * };
 */
export interface DocumentChecker {
  /** Short name for logs, such as `rules` or `openai`. */
  readonly name: string;
  check(input: DocumentCheckInput, context: CheckContext): Promise<DocumentWarning[]>;
}
