import type { AttachmentIssueCode } from "./errors.js";
import { createPdfInspector } from "./internal/pdf-inspector.js";
import { type AttachmentLimits, resolveAttachmentLimits } from "./limits.js";
import type { ActiveContentKind, EmbeddedXml, PdfEngine, PdfOcrReport } from "./pdf-engine.js";

/**
 * What {@link inspectPdf} found: the facts of a readable PDF, or a refusal with a stable code.
 *
 * @example
 * const r: PdfInspection = await inspectPdf(bytes);
 * if (r.ok) console.log(r.page_count); else console.log(r.code);
 */
export type PdfInspection =
  | {
      ok: true;
      page_count: number;
      text: string;
      pages: string[];
      text_truncated: boolean;
      encryption: "none" | "owner_password_only";
      pdf_version: string | null;
      /** Kinds of active content found, empty when none (decision pdf-guard-active-content). */
      active_content: ActiveContentKind[];
      /** Embedded XML files, such as an e-invoice's Factur-X / UBL data; empty when none. */
      embedded_xml: EmbeddedXml[];
      /**
       * Pages without a text layer read by OCR (issue 30, point 5): only on an engine's workers,
       * within `ocrBudgetMs`, when the optional OCR dependencies are installed.
       */
      ocr: PdfOcrReport;
    }
  | { ok: false; code: AttachmentIssueCode; message: string };

/**
 * Options of {@link inspectPdf}.
 *
 * @example
 * const options: InspectPdfOptions = { limits: { parseTimeoutMs: 5000 }, engine: getPdfEngine() };
 */
export interface InspectPdfOptions {
  /** Overrides of the parse limits (`parseTimeoutMs`, `parseMemoryMb`, `maxTextChars`). */
  limits?: Partial<AttachmentLimits>;
  /**
   * The engine that parses, bounded in time and memory, such as `getPdfEngine()` from
   * `@incasso/pdf-guard/node`. Without one, the file is parsed on the calling thread and the time
   * and memory limits do not apply.
   */
  engine?: PdfEngine;
}

/**
 * Judges one file by its content: `%PDF-` header and `%%EOF` marker, then a full parse with pdf.js
 * that refuses damaged and password-protected files and extracts the text of every page, and a
 * look for active content (JavaScript, Launch actions, embedded files, bytes before the header),
 * reported in `active_content` and never refused here. Sizes are not checked here; {@link checkAttachments} does that for an order.
 *
 * Throws a {@link PdfGuardError} (503 `pdf_engine_busy` or `pdf_engine_closed`, 500
 * `pdf_engine_unavailable`) when the engine cannot judge the file; that is never a refusal.
 * Parsed by `options.engine` when given, else on the calling thread.
 *
 * @example
 * const r = await inspectPdf(new Uint8Array(await readFile("factuur.pdf")));
 * if (!r.ok) console.log(r.code); // for example "pdf_password_protected"
 */
export async function inspectPdf(bytes: Uint8Array, options: InspectPdfOptions = {}): Promise<PdfInspection> {
  const limits = resolveAttachmentLimits(options.limits);
  return createPdfInspector(limits, options.engine ?? null).inspect(bytes);
}
