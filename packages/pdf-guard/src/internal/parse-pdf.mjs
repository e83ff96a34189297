// The PDF parse shared by the worker thread and the in-process mode. Plain JavaScript because the
// worker loads it directly (see pdf-worker.mjs); its types are in parse-pdf.d.mts.
import { getDocumentProxy } from "unpdf";
import { scanActiveContent } from "./scan-active-content.mjs";

// How much of the file's compressed object streams the byte-level check inflates, in total. pdf.js
// inflates the same streams to read the document; this bounds the second look on the calling
// thread, where no memory watchdog runs (decision pdf-guard-active-content).
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
// The pages opened for their actions and annotations: all within the text budget, and past it up
// to this page number, so a file of tens of thousands of pages stays within the parse time-out.
const MAX_ACTION_PAGES = 1000;
// The kinds of active content in the order they are reported.
const KIND_ORDER = ["javascript", "launch", "embedded_file", "bytes_before_header"];
// pdf.js AnnotationType.FILEATTACHMENT: an annotation that carries an embedded file.
const FILE_ATTACHMENT_ANNOTATION = 17;

/**
 * Opens a PDF with pdf.js, extracts its text page by page, and reports its active content.
 *
 * pdf.js tells a password apart from damage by the exception's name (architecture note "PDF
 * checks"): `PasswordException` when the empty user password does not open the file (ISO 32000-2
 * §7.6.4: a reader first tries the empty user password), `InvalidPDFException` when the structure
 * cannot be read. Anything else thrown while parsing is treated as damage too.
 *
 * Active content (decision pdf-guard-active-content) comes from two looks that complement each
 * other: the structure as pdf.js reads it (the catalog's /Names /JavaScript tree, a JavaScript
 * /OpenAction and the catalog's /AA through `getJSActions`, the /EmbeddedFiles tree through
 * `getAttachments`, each page's /AA, its form fields' JavaScript actions and file attachments),
 * and the names in the bytes and in the compressed object streams, which also find Launch actions
 * and link actions that pdf.js does not report. Neither ever refuses a file.
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
    const found = new Set();
    if (hasEntries(await pdf.getJSActions().catch(() => null))) found.add("javascript");
    if (hasEntries(await pdf.getAttachments().catch(() => null))) found.add("embedded_file");
    const pages = [];
    let chars = 0;
    let truncated = false;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (chars >= options.maxTextChars) {
        truncated = true;
        // Past the text budget a page is opened only for its actions and annotations, and only up
        // to MAX_ACTION_PAGES: a file of tens of thousands of pages would otherwise run into the
        // parse time-out. The byte scan below still reads every object of a file that is not
        // encrypted (decision pdf-guard-active-content).
        if (n > MAX_ACTION_PAGES) break;
        const page = await pdf.getPage(n);
        await pageActiveContent(page, found);
        page.cleanup();
        continue;
      }
      const page = await pdf.getPage(n);
      await pageActiveContent(page, found);
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
    for (const kind of await scanActiveContent(bytes, { maxInflatedBytes: MAX_INFLATED_BYTES })) {
      found.add(kind);
    }
    return {
      ok: true,
      page_count: pdf.numPages,
      pages,
      text_truncated: truncated,
      encryption: encrypted ? "owner_password_only" : "none",
      pdf_version: version,
      active_content: KIND_ORDER.filter((kind) => found.has(kind)),
    };
  } catch (error) {
    return refusalFor(error);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/**
 * Adds what one page holds: JavaScript in the page's /AA and in a form field's /A or /AA (pdf.js
 * reports those as `actions`; a link's it does not, the byte scan finds those), and file
 * attachment annotations (embedded files).
 *
 * @param {{ getJSActions(): Promise<unknown>, getAnnotations(): Promise<Array<Record<string, unknown>>> }} page
 * @param {Set<string>} found
 */
async function pageActiveContent(page, found) {
  if (hasEntries(await page.getJSActions().catch(() => null))) found.add("javascript");
  const annotations = await page.getAnnotations().catch(() => []);
  for (const annotation of annotations) {
    if (hasEntries(annotation.actions)) found.add("javascript");
    if (annotation.annotationType === FILE_ATTACHMENT_ANNOTATION) found.add("embedded_file");
  }
}

/** @param {unknown} value */
function hasEntries(value) {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
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
