import type { AttachmentLimits } from "./limits.js";

/**
 * The limits one parse runs under: the time and memory budgets, how much text to keep, and how
 * long scanned pages may take to be read by OCR (none when left out).
 *
 * @example
 * const limits: PdfParseLimits = { parseTimeoutMs: 10_000, parseMemoryMb: 256, maxTextChars: 200_000, ocrBudgetMs: 8_000 };
 */
export type PdfParseLimits = Pick<AttachmentLimits, "parseTimeoutMs" | "parseMemoryMb" | "maxTextChars"> &
  Partial<Pick<AttachmentLimits, "ocrBudgetMs">>;

/**
 * A kind of active content a PDF can hold (decision pdf-guard-active-content): `javascript`
 * (a JavaScript action: the catalog's /Names /JavaScript, /OpenAction, an /AA, an annotation's
 * action), `launch` (a Launch action, which starts another program or file), `embedded_file`
 * (/EmbeddedFiles or a file attachment annotation), `bytes_before_header` (something other than
 * white space before `%PDF-`: the file is also, say, an HTML page). Reported, never refused, unless
 * the caller asks for refusal (`refuseActiveContent`).
 *
 * @example
 * const kind: ActiveContentKind = "javascript";
 */
export type ActiveContentKind = "javascript" | "launch" | "embedded_file" | "bytes_before_header";

/**
 * Every {@link ActiveContentKind}, in the order they are reported.
 *
 * @example
 * ACTIVE_CONTENT_KINDS.includes("launch"); // true
 */
export const ACTIVE_CONTENT_KINDS = [
  "javascript",
  "launch",
  "embedded_file",
  "bytes_before_header",
] as const satisfies readonly ActiveContentKind[];

/**
 * An embedded file of a PDF that is XML: its name and its text (UTF-8).
 *
 * @example
 * const file: EmbeddedXml = { filename: "factur-x.xml", xml: "<rsm:CrossIndustryInvoice …>" };
 */
export interface EmbeddedXml {
  filename: string;
  xml: string;
}

/**
 * What OCR did with a PDF's scanned pages: the 1-based pages whose text it recognised (their text
 * is in `pages` like any other), whether a scanned page was left unread (the time budget was
 * spent, or OCR is not installed), and why OCR could not run at all (null when it could, or when
 * no page needed it).
 *
 * @example
 * const report: PdfOcrReport = { pages: [1, 2], incomplete: false, unavailable: null };
 */
export interface PdfOcrReport {
  pages: number[];
  incomplete: boolean;
  unavailable: string | null;
}

/**
 * What a {@link PdfEngine} reports for one file: the facts of a readable PDF, or why it is not
 * readable. `password` and `damaged` come from pdf.js; `timeout` and `resource_limit` from the
 * engine's bounds. Every one of them judges the file; an engine that cannot judge it (busy, closed,
 * not startable) rejects with a {@link PdfGuardError} instead.
 *
 * @example
 * const result: PdfParseResult = await engine.parse(bytes, limits);
 * if (result.ok) console.log(result.page_count); else console.log(result.reason);
 */
export type PdfParseResult =
  | {
      ok: true;
      page_count: number;
      /** Text per page, in page order, cut at `maxTextChars` in total. */
      pages: string[];
      text_truncated: boolean;
      encryption: "none" | "owner_password_only";
      pdf_version: string | null;
      /**
       * The kinds of active content found, empty when none. Optional so an engine written before
       * it still fits; without it the inspector looks at the bytes itself (names and the header),
       * which sees less (decision pdf-guard-active-content).
       */
      active_content?: ActiveContentKind[];
      /**
       * Embedded files that are XML, such as the Factur-X / ZUGFeRD or UBL data of an e-invoice,
       * for the document check (issue 30). Optional so an engine written before it still fits.
       */
      embedded_xml?: EmbeddedXml[];
      /**
       * OCR of the pages without a text layer (issue 30, point 5), when the engine reads scans.
       * Optional so an engine without OCR still fits.
       */
      ocr?: PdfOcrReport;
    }
  | { ok: false; reason: "password" | "damaged" | "timeout" | "resource_limit"; detail: string };

/**
 * Where PDFs are parsed when the caller wants them off its own thread and bounded in time and
 * memory. This package's main entry runs on any JavaScript runtime and only uses an engine it is
 * given; the Node one with worker threads is `createPdfEngine` / `getPdfEngine` from
 * `@incasso/pdf-guard/node` (decision pdf-guard-engine-injected). Without an engine, PDFs are
 * parsed on the calling thread, with no time or memory bounds.
 *
 * @example
 * import { getPdfEngine } from "@incasso/pdf-guard/node";
 * const engine: PdfEngine = getPdfEngine();
 * const result = await checkAttachments(list, { engine });
 */
export interface PdfEngine {
  /**
   * Parses one file under the limits. Aborting `signal` takes a file that still waits for a worker
   * off the queue (the promise rejects with the signal's reason).
   */
  parse(bytes: Uint8Array, limits: PdfParseLimits, signal?: AbortSignal): Promise<PdfParseResult>;
}
