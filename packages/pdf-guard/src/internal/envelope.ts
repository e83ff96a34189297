/** Outcome of the cheap byte-level check that runs before pdf.js. */
export type EnvelopeOutcome =
  | { ok: true }
  | { ok: false; code: "not_pdf" | "pdf_truncated"; message: string };

const HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const EOF_MARKER = [0x25, 0x25, 0x45, 0x4f, 0x46]; // "%%EOF"
// PDF Reference 1.7, Appendix H notes 13 and 18: readers accept the header anywhere in the first
// 1024 bytes and the %%EOF marker anywhere in the last 1024 bytes. ISO 32000-1 §7.5.2 and §7.5.5
// state the strict form (first line, last line); we follow the tolerance readers actually apply.
const WINDOW = 1024;

/**
 * Judges the content, not the name (spec Attachment: "validation looks at the real content"): a PDF
 * starts with `%PDF-` and ends with `%%EOF`. A file cut off in transit loses its end marker; pdf.js
 * would quietly rebuild such a file, so the marker check is what catches truncation.
 */
export function checkEnvelope(bytes: Uint8Array): EnvelopeOutcome {
  if (bytes.length === 0) return { ok: false, code: "not_pdf", message: "The file is empty." };
  if (indexOf(bytes, HEADER, 0, Math.min(bytes.length, WINDOW)) < 0) {
    return { ok: false, code: "not_pdf", message: "The file is not a PDF: no %PDF- header at its start." };
  }
  if (indexOf(bytes, EOF_MARKER, Math.max(0, bytes.length - WINDOW), bytes.length) < 0) {
    return {
      ok: false,
      code: "pdf_truncated",
      message: "The PDF is incomplete: the %%EOF end marker is missing, so the file was probably cut off.",
    };
  }
  return { ok: true };
}

function indexOf(haystack: Uint8Array, needle: number[], from: number, to: number): number {
  outer: for (let i = from; i + needle.length <= to; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}
