import type { AttachmentIssueCode } from "./errors.js";
import { createPdfInspector } from "./internal/pdf-inspector.js";
import { type AttachmentLimits, resolveAttachmentLimits } from "./limits.js";
import type { PdfEngine } from "./pdf-engine.js";

/**
 * Where pdf.js runs: `worker` (default) in worker threads bounded in heap, ArrayBuffer memory and
 * time; `none` on the calling thread, for hosts without worker threads, where those bounds do not
 * apply.
 *
 * @example
 * const isolation: PdfIsolation = "worker";
 */
export type PdfIsolation = "worker" | "none";

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
    }
  | { ok: false; code: AttachmentIssueCode; message: string };

/**
 * Options of {@link inspectPdf}.
 *
 * @example
 * const options: InspectPdfOptions = { limits: { parseTimeoutMs: 5000 }, isolation: "worker" };
 */
export interface InspectPdfOptions {
  /** Overrides of the parse limits (`parseTimeoutMs`, `parseMemoryMb`, `maxTextChars`). */
  limits?: Partial<AttachmentLimits>;
  /** `worker` (default): parse in a bounded worker thread; `none`: on the calling thread. */
  isolation?: PdfIsolation;
  /** The engine whose workers parse; default the process-wide {@link getPdfEngine}. */
  engine?: PdfEngine;
}

/**
 * Judges one file by its content: `%PDF-` header and `%%EOF` marker, then a full parse with pdf.js
 * that refuses damaged and password-protected files and extracts the text of every page. Sizes are
 * not checked here; {@link checkAttachments} does that for an order.
 *
 * Throws a {@link PdfGuardError} (503 `pdf_engine_busy` or `pdf_engine_closed`, 500
 * `pdf_engine_unavailable`) when the engine cannot judge the file; that is never a refusal.
 *
 * @example
 * const r = await inspectPdf(new Uint8Array(await readFile("factuur.pdf")));
 * if (!r.ok) console.log(r.code); // for example "pdf_password_protected"
 */
export async function inspectPdf(bytes: Uint8Array, options: InspectPdfOptions = {}): Promise<PdfInspection> {
  const limits = resolveAttachmentLimits(options.limits);
  return createPdfInspector(limits, options.isolation ?? "worker", options.engine).inspect(bytes);
}
