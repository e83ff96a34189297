import type { AttachmentIssueCode } from "../errors.js";
import type { PdfIsolation } from "../inspect-pdf.js";
import type { AttachmentLimits } from "../limits.js";
import { checkEnvelope } from "./envelope.js";
import { type PdfParseOutcome, parsePdf } from "./parse-pdf.mjs";
import { createPdfWorkerPool } from "./worker-pool.js";

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

/** Opens PDFs under the limits; `close()` ends its workers. */
export interface PdfInspector {
  inspect(bytes: Uint8Array): Promise<PdfFacts | PdfRefusal>;
  close(): Promise<void>;
}

/** Builds an inspector for one batch of files. */
export function createPdfInspector(limits: AttachmentLimits, isolation: PdfIsolation): PdfInspector {
  const pool =
    isolation === "worker"
      ? createPdfWorkerPool({
          size: limits.concurrency,
          timeoutMs: limits.parseTimeoutMs,
          maxMemoryMb: limits.parseMemoryMb,
          maxTextChars: limits.maxTextChars,
        })
      : null;
  return {
    async inspect(bytes) {
      const envelope = checkEnvelope(bytes);
      if (!envelope.ok) return envelope;
      const outcome = pool
        ? await pool.parse(bytes)
        : await parsePdf(bytes, { maxTextChars: limits.maxTextChars });
      return toFacts(outcome);
    },
    async close() {
      await pool?.close();
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
