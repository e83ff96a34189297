import type { AttachmentIssueCode } from "../errors.js";
import type { AttachmentLimits } from "../limits.js";
import type {
  ActiveContentKind,
  EmbeddedXml,
  PdfEngine,
  PdfOcrReport,
  PdfParseResult,
} from "../pdf-engine.js";
import { ACTIVE_CONTENT_KINDS } from "../pdf-engine.js";
import { checkEnvelope } from "./envelope.js";
import { parsePdf } from "./parse-pdf.mjs";
import { hasBytesBeforeHeader, scanNames } from "./scan-active-content.mjs";

/** Facts of a readable PDF. */
export interface PdfFacts {
  ok: true;
  page_count: number;
  pages: string[];
  text: string;
  text_truncated: boolean;
  encryption: "none" | "owner_password_only";
  pdf_version: string | null;
  /** Kinds of active content found, empty when none (decision pdf-guard-active-content). */
  active_content: ActiveContentKind[];
  /** Embedded XML files (an e-invoice's data), empty when none. */
  embedded_xml: EmbeddedXml[];
  /** What OCR did with pages without a text layer; no pages read when the engine has no OCR. */
  ocr: PdfOcrReport;
}

/** Why a PDF is refused. */
export interface PdfRefusal {
  ok: false;
  code: AttachmentIssueCode;
  message: string;
}

/** Opens PDFs under the limits. Engine failures (busy, closed, cannot start) are thrown. */
export interface PdfInspector {
  inspect(bytes: Uint8Array, signal?: AbortSignal): Promise<PdfFacts | PdfRefusal>;
}

/**
 * Builds an inspector for one batch of files: on the engine's workers when one is given, else on
 * the calling thread (no time or memory bounds then).
 */
export function createPdfInspector(limits: AttachmentLimits, engine: PdfEngine | null): PdfInspector {
  return {
    async inspect(bytes, signal) {
      const envelope = checkEnvelope(bytes);
      if (!envelope.ok) return envelope;
      const outcome = engine
        ? await engine.parse(bytes, limits, signal)
        : // No OCR on the calling thread: it is bounded in time only inside an engine's workers.
          await parsePdf(bytes, { maxTextChars: limits.maxTextChars });
      return toFacts(outcome, bytes);
    },
  };
}

function toFacts(outcome: PdfParseResult, bytes: Uint8Array): PdfFacts | PdfRefusal {
  if (outcome.ok) {
    return {
      ok: true,
      page_count: outcome.page_count,
      pages: outcome.pages,
      text: outcome.pages.join("\n\f\n"),
      text_truncated: outcome.text_truncated,
      encryption: outcome.encryption,
      pdf_version: outcome.pdf_version,
      active_content: outcome.active_content ?? bytesOnlyActiveContent(bytes),
      embedded_xml: outcome.embedded_xml ?? [],
      ocr: outcome.ocr ?? { pages: [], incomplete: false, unavailable: null },
    };
  }
  switch (outcome.reason) {
    case "password":
      return {
        ok: false,
        code: "pdf_password_protected",
        message: "The PDF is password protected; send it without a password.",
      };
    case "timeout":
      return {
        ok: false,
        code: "pdf_timeout",
        message: `The PDF could not be read in time (${outcome.detail}).`,
      };
    case "resource_limit":
      return {
        ok: false,
        code: "pdf_too_complex",
        message: `The PDF could not be read within the resource limits (${outcome.detail}).`,
      };
    default:
      return { ok: false, code: "pdf_damaged", message: "The PDF is damaged and cannot be read." };
  }
}

// For an engine that does not report active content: the header and the names written in the
// file, without the object streams (those need inflating, which is the engine's work to bound).
function bytesOnlyActiveContent(bytes: Uint8Array): ActiveContentKind[] {
  const found = new Set<string>();
  if (hasBytesBeforeHeader(bytes)) found.add("bytes_before_header");
  scanNames(bytes, found);
  return ACTIVE_CONTENT_KINDS.filter((kind) => found.has(kind));
}
