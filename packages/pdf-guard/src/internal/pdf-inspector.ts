import type { AttachmentIssueCode } from "../errors.js";
import type { PdfIsolation } from "../inspect-pdf.js";
import type { AttachmentLimits } from "../limits.js";
import { getPdfEngine, type PdfEngine, poolOf } from "../pdf-engine.js";
import { checkEnvelope } from "./envelope.js";
import { type PdfParseOutcome, parsePdf } from "./parse-pdf.mjs";

/** Facts of a readable PDF. */
export interface PdfFacts {
  ok: true;
  page_count: number;
  pages: string[];
  text: string;
  text_truncated: boolean;
  encryption: "none" | "owner_password_only";
  pdf_version: string | null;
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
 * Builds an inspector for one batch of files on the given engine (the process-wide one when
 * omitted), or on the calling thread for isolation `none`.
 */
export function createPdfInspector(
  limits: AttachmentLimits,
  isolation: PdfIsolation,
  engine?: PdfEngine,
): PdfInspector {
  const pool = isolation === "worker" ? poolOf(engine ?? getPdfEngine()) : null;
  return {
    async inspect(bytes, signal) {
      const envelope = checkEnvelope(bytes);
      if (!envelope.ok) return envelope;
      const outcome = pool
        ? await pool.parse(bytes, {
            timeoutMs: limits.parseTimeoutMs,
            maxTextChars: limits.maxTextChars,
            maxMemoryBytes: limits.parseMemoryMb * 1024 * 1024,
            signal,
          })
        : await parsePdf(bytes, { maxTextChars: limits.maxTextChars });
      return toFacts(outcome);
    },
  };
}

function toFacts(
  outcome: PdfParseOutcome | { ok: false; reason: "timeout" | "resource_limit"; detail: string },
): PdfFacts | PdfRefusal {
  if (outcome.ok) {
    return {
      ok: true,
      page_count: outcome.page_count,
      pages: outcome.pages,
      text: outcome.pages.join("\n\f\n"),
      text_truncated: outcome.text_truncated,
      encryption: outcome.encryption,
      pdf_version: outcome.pdf_version,
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
