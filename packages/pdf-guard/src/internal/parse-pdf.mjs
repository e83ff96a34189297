// The PDF parse shared by the worker thread and the in-process mode. Plain JavaScript because the
// worker loads it directly (see pdf-worker.mjs); its types are in parse-pdf.d.mts.
import { getDocumentProxy } from "unpdf";

/**
 * Opens a PDF with pdf.js and extracts its text, page by page.
 *
 * pdf.js tells a password apart from damage by the exception's name (architecture note "PDF
 * checks"): `PasswordException` when the empty user password does not open the file (ISO 32000-2
 * §7.6.4: a reader first tries the empty user password), `InvalidPDFException` when the structure
 * cannot be read. Anything else thrown while parsing is treated as damage too.
 *
 * @param {Uint8Array} bytes
 * @param {{ maxTextChars: number }} options
 * @returns {Promise<import("./parse-pdf.d.mts").PdfParseOutcome>}
 */
export async function parsePdf(bytes, options) {
  let pdf;
  try {
    // verbosity 0: pdf.js would otherwise print recovery warnings for every damaged file.
    // isEvalSupported false: never compile code from a PDF (fonts) with eval.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    return refusalFor(error);
  }
  try {
    const meta = await pdf.getMetadata().catch(() => null);
    const encrypted = typeof meta?.info?.EncryptFilterName === "string";
    const version = typeof meta?.info?.PDFFormatVersion === "string" ? meta.info.PDFFormatVersion : null;
    const pages = [];
    let chars = 0;
    let truncated = false;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (chars >= options.maxTextChars) {
        truncated = true;
        break;
      }
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = pageText(content.items);
      if (chars + text.length > options.maxTextChars) {
        text = text.slice(0, options.maxTextChars - chars);
        truncated = true;
      }
      chars += text.length;
      pages.push(text);
      page.cleanup();
    }
    return {
      ok: true,
      page_count: pdf.numPages,
      pages,
      text_truncated: truncated,
      encryption: encrypted ? "owner_password_only" : "none",
      pdf_version: version,
    };
  } catch (error) {
    return refusalFor(error);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/**
 * Joins pdf.js text items into lines: a new line where pdf.js marks an end of line or where the
 * baseline moves, a space between pieces on the same baseline.
 *
 * @param {Array<{ str?: string, hasEOL?: boolean, transform?: number[] }>} items
 */
function pageText(items) {
  let out = "";
  let lastY = null;
  let lastEol = false;
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    const y = Array.isArray(item.transform) ? item.transform[5] : null;
    if (out.length > 0 && !lastEol) {
      out += lastY !== null && y !== null && Math.abs(y - lastY) > 1 ? "\n" : " ";
    }
    out += item.str;
    if (item.hasEOL) out += "\n";
    lastEol = item.hasEOL === true;
    lastY = y;
  }
  return out.replace(/[ \t]+\n/g, "\n").trim();
}

/** @param {unknown} error */
function refusalFor(error) {
  const name = typeof error === "object" && error !== null ? String(error.name ?? "") : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "PasswordException") return { ok: false, reason: "password", detail: message };
  return { ok: false, reason: "damaged", detail: `${name || "Error"}: ${message}` };
}
