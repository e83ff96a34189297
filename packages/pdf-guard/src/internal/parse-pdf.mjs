// The PDF parse shared by the worker thread and the in-process mode. Plain JavaScript because the
// worker loads it directly (see pdf-worker.mjs); its types are in parse-pdf.d.mts.
import { getDocumentProxy } from "unpdf";
import { scanActiveContent } from "./scan-active-content.mjs";

// The OCR module (decision pdf-guard-ocr) is loaded by a path held in a variable, only when OCR is
// asked for: bundlers then leave it and its Node-only packages (tesseract.js, @napi-rs/canvas) out
// of the package's main entry, which runs on any runtime. It lies beside this file, in src/internal
// and in dist alike.
const OCR_MODULE = "./ocr-pages.mjs";
/** @type {Promise<typeof import("./ocr-pages.mjs")> | null} */
let ocrModule = null;
/** @type {typeof import("./ocr-pages.mjs") | null} the OCR module once loaded */
let ocrLoaded = null;

/**
 * Keeps OCR (the page being rendered for it and its recogniser thread) within what the parse's
 * memory budget has left besides this thread's own memory; returns the bytes OCR holds, 0 when it
 * never ran. For the PDF worker's memory watchdog (pdf-worker.mjs, decision pdf-guard-ocr).
 *
 * @param {number} availableBytes
 * @returns {number}
 *
 * @example
 * const usage = process.memoryUsage();
 * const ocrBytes = holdOcrWithin(maxMemoryBytes - usage.arrayBuffers - usage.heapUsed);
 */
export function holdOcrWithin(availableBytes) {
  return ocrLoaded ? ocrLoaded.holdOcrWithin(availableBytes) : 0;
}

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
// Embedded XML kept for the document check (Factur-X / ZUGFeRD, XRechnung, UBL): at most this many
// files of at most this many bytes each. An e-invoice's XML is tens of KB; the caps keep a file
// full of attachments from filling the worker's answer.
const MAX_EMBEDDED_XML_FILES = 4;
const MAX_EMBEDDED_XML_BYTES = 2 * 1024 * 1024;

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
 * Pages without a text layer (scans) are read by OCR when `ocrBudgetMs` is above 0 and the
 * optional OCR dependencies are installed (ocr-pages.mjs, decision pdf-guard-ocr), within that
 * many milliseconds for the whole file, and within `maxMemoryBytes` together with this thread's
 * own memory (the PDF worker's watchdog keeps it so through {@link holdOcrWithin}).
 *
 * @param {Uint8Array} bytes
 * @param {{ maxTextChars: number, ocrBudgetMs?: number, maxMemoryBytes?: number }} options
 * @returns {Promise<import("./parse-pdf.d.mts").PdfParseOutcome>}
 */
export async function parsePdf(bytes, options) {
  const started = Date.now();
  const ocrBudgetMs = options.ocrBudgetMs ?? 0;
  // pdf.js draws some things (image masks, patterns) on canvases of its own; with OCR on it gets
  // the same canvas factory the pages are rendered with.
  let ocrLib = null;
  let ocrTools = null;
  /** @type {string | null} */
  let ocrLoadFailure = null;
  if (ocrBudgetMs > 0) {
    try {
      ocrModule ??= import(/* @vite-ignore */ OCR_MODULE);
      ocrLib = await ocrModule;
      ocrLoaded = ocrLib;
      ocrTools = await ocrLib.loadOcrTools();
    } catch (error) {
      // OCR that cannot be loaded never refuses a file, this one or a later one: its scanned pages
      // stay unread, and the next file tries to load it again.
      ocrModule = null;
      ocrLib = null;
      ocrLoadFailure = `OCR could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  let pdf;
  try {
    // verbosity 0: pdf.js would otherwise print recovery warnings for every damaged file.
    // isEvalSupported false: never compile code from a PDF (fonts) with eval.
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      ...(ocrTools?.ok ? { CanvasFactory: ocrTools.CanvasFactory } : {}),
    });
  } catch (error) {
    return refusalFor(error);
  }
  try {
    const meta = await pdf.getMetadata().catch(() => null);
    const encrypted = typeof meta?.info?.EncryptFilterName === "string";
    const version = typeof meta?.info?.PDFFormatVersion === "string" ? meta.info.PDFFormatVersion : null;
    const found = new Set();
    /** @type {Array<{ filename: string, xml: string }>} */
    const embeddedXml = [];
    /** What the embedded files pdf.js lists are: e-invoice XML, or anything else. */
    const embedded = { invoices: 0, others: 0 };
    if (hasEntries(await pdf.getJSActions().catch(() => null))) found.add("javascript");
    const attachments = await pdf.getAttachments().catch(() => null);
    if (hasEntries(attachments)) {
      for (const file of Object.values(attachments))
        countEmbedded(addEmbeddedXml(file, embeddedXml), embedded);
    }
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
        await pageActiveContent(page, found, embeddedXml, embedded);
        page.cleanup();
        continue;
      }
      const page = await pdf.getPage(n);
      await pageActiveContent(page, found, embeddedXml, embedded);
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
    const ocr = {
      pages: /** @type {number[]} */ ([]),
      incomplete: false,
      unavailable: ocrLoadFailure,
    };
    if (ocrLib) {
      const scanned = pages.flatMap((text, i) => (ocrLib.looksScanned(text) ? [i + 1] : []));
      if (scanned.length > 0) {
        // The budget counts from the start of the parse (the text layer was read first).
        const budgetMs = Math.max(0, started + ocrBudgetMs - Date.now());
        const read = await ocrLib
          .ocrPages(pdf, scanned, {
            budgetMs,
            maxMemoryBytes: options.maxMemoryBytes ?? Number.POSITIVE_INFINITY,
          })
          .catch((error) => ({
            // OCR failing never refuses the file: its scanned pages stay unread.
            texts: new Map(),
            incomplete: true,
            unavailable: `OCR failed: ${error instanceof Error ? error.message : String(error)}`,
          }));
        for (const [n, text] of read.texts) {
          pages[n - 1] = text;
          ocr.pages.push(n);
        }
        ocr.incomplete = read.incomplete;
        ocr.unavailable = read.unavailable;
        // The text budget counts the recognised text too.
        let total = 0;
        for (let i = 0; i < pages.length; i++) {
          const page = /** @type {string} */ (pages[i]);
          if (total + page.length > options.maxTextChars) {
            pages[i] = page.slice(0, Math.max(0, options.maxTextChars - total));
            truncated = true;
          }
          total += /** @type {string} */ (pages[i]).length;
        }
      }
    }
    if (embedded.others > 0) found.add("embedded_file");
    for (const kind of await scanActiveContent(bytes, { maxInflatedBytes: MAX_INFLATED_BYTES })) {
      // The e-invoice's own XML is what an e-invoice must embed (Factur-X 1.0 §6, ZUGFeRD,
      // XRechnung): not active content. When pdf.js lists embedded files and every one is an
      // e-invoice, the embedded-file names in the bytes are theirs (decision
      // pdf-guard-active-content).
      if (kind === "embedded_file" && embedded.invoices > 0 && embedded.others === 0) continue;
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
      embedded_xml: embeddedXml,
      ocr,
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
 * @param {Array<{ filename: string, xml: string }>} embeddedXml
 * @param {{ invoices: number, others: number }} embedded
 */
async function pageActiveContent(page, found, embeddedXml, embedded) {
  if (hasEntries(await page.getJSActions().catch(() => null))) found.add("javascript");
  const annotations = await page.getAnnotations().catch(() => []);
  for (const annotation of annotations) {
    if (hasEntries(annotation.actions)) found.add("javascript");
    if (annotation.annotationType === FILE_ATTACHMENT_ANNOTATION) {
      countEmbedded(addEmbeddedXml(annotation.file, embeddedXml), embedded);
    }
  }
}

/**
 * Keeps an embedded file that is XML: an e-invoice (Factur-X / ZUGFeRD, UBL) carries its data so
 * (EN 16931; Factur-X 1.0 §6: the XML is an embedded file of the PDF/A-3). A file counts as XML by
 * its name or by starting with "<"; anything else, or past the caps, is left out. Returns whether
 * the file is an e-invoice (see {@link isEInvoiceXml}).
 *
 * @param {unknown} file
 * @param {Array<{ filename: string, xml: string }>} out
 * @returns {boolean}
 */
function addEmbeddedXml(file, out) {
  if (typeof file !== "object" || file === null) return false;
  const content = /** @type {{ content?: unknown }} */ (file).content;
  const rawName = /** @type {{ filename?: unknown }} */ (file).filename;
  const filename = typeof rawName === "string" ? rawName : "";
  if (!(content instanceof Uint8Array) || content.length === 0 || content.length > MAX_EMBEDDED_XML_BYTES)
    return false;
  const xml = new TextDecoder("utf-8").decode(content).replace(/^\uFEFF/, "");
  if (!/\.xml$/i.test(filename) && !xml.trimStart().startsWith("<")) return false;
  const invoice = isEInvoiceXml(xml);
  if (out.length < MAX_EMBEDDED_XML_FILES && !out.some((e) => e.filename === filename && e.xml === xml)) {
    out.push({ filename, xml });
  }
  return invoice;
}

// The root element of an e-invoice with its namespace: UN/CEFACT CII (Factur-X, ZUGFeRD 2,
// XRechnung CII), ZUGFeRD 1.0's CrossIndustryDocument, and UBL 2 Invoice and CreditNote (SI-UBL,
// XRechnung UBL). Only the root is looked at, to tell the invoice's own XML from any other
// embedded file; its data is read with the XML parser (einvoice reading, decision
// pdf-guard-invoice-reading).
const E_INVOICE_ROOT =
  /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<(?:[A-Za-z_][\w.-]*:)?(CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)\b[^>]*xmlns(?::[\w.-]+)?=["'](urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100|urn:ferd:CrossIndustryDocument:invoice:1p0|urn:oasis:names:specification:ubl:schema:xsd:(?:Invoice|CreditNote)-2)["']/;

/**
 * Whether an embedded XML file is an e-invoice (its root element is one of {@link E_INVOICE_ROOT}).
 *
 * @param {string} xml
 */
function isEInvoiceXml(xml) {
  const root = E_INVOICE_ROOT.exec(xml.slice(0, 4096));
  if (!root) return false;
  // The namespace must be the root's own: CII's for CII roots, UBL's for UBL roots.
  const cii = root[1] === "CrossIndustryInvoice" || root[1] === "CrossIndustryDocument";
  return cii === !/^urn:oasis:/.test(/** @type {string} */ (root[2]));
}

/**
 * Counts one embedded file as an e-invoice or as something else.
 *
 * @param {boolean} invoice
 * @param {{ invoices: number, others: number }} embedded
 */
function countEmbedded(invoice, embedded) {
  if (invoice) embedded.invoices++;
  else embedded.others++;
}

/** @param {unknown} value */
function hasEntries(value) {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}

/**
 * Rebuilds the lines of a page from the position pdf.js gives each text item (its transform:
 * x, y of the baseline, and the font size), not from the order the content stream draws them in.
 * Items whose baselines lie within 40% of the font size of each other form one line, read left
 * to right; this puts a label and its amount in a column further right, or drawn long after it, on
 * one line. A wide gap (more than the font size) between items becomes a tab, so a label and an
 * amount in different columns stay told apart from words of one phrase. Text without positions
 * (or rotated text) keeps the stream order.
 *
 * @param {Array<{ str?: string, hasEOL?: boolean, transform?: number[], width?: number }>} items
 */
function pageText(items) {
  /** @type {Array<{ str: string, x: number, y: number, end: number, size: number, seq: number }>} */
  const pieces = [];
  let seq = 0;
  for (const item of items) {
    if (typeof item.str !== "string" || item.str.trim() === "") continue;
    const t = item.transform;
    seq++;
    if (!Array.isArray(t) || t.length < 6 || Math.abs(t[1]) > 0.01 || Math.abs(t[2]) > 0.01) {
      // Rotated or unplaced: keep it in stream order on a line of its own.
      pieces.push({ str: item.str, x: 0, y: Number.NEGATIVE_INFINITY, end: 0, size: 10, seq });
      continue;
    }
    const size = Math.abs(t[3]) || Math.abs(t[0]) || 10;
    const width = typeof item.width === "number" ? item.width : 0;
    pieces.push({ str: item.str, x: t[4], y: t[5], end: t[4] + width, size, seq });
  }
  // Top of the page first (PDF y grows upwards), then left to right.
  pieces.sort((a, b) => b.y - a.y || a.x - b.x || a.seq - b.seq);
  /** @type {Array<Array<(typeof pieces)[number]>>} */
  const lines = [];
  let current = [];
  let anchor = null;
  for (const piece of pieces) {
    const sameLine =
      anchor !== null &&
      Number.isFinite(piece.y) &&
      Math.abs(anchor.y - piece.y) <= 0.4 * Math.min(anchor.size, piece.size);
    if (!sameLine && current.length > 0) {
      lines.push(current);
      current = [];
    }
    if (!sameLine) anchor = piece;
    current.push(piece);
  }
  if (current.length > 0) lines.push(current);
  return lines
    .map((line) => {
      line.sort((a, b) => a.x - b.x || a.seq - b.seq);
      let out = "";
      let end = null;
      for (const piece of line) {
        if (end !== null) {
          const gap = piece.x - end;
          out += gap > piece.size ? "\t" : gap > piece.size * 0.15 || !/\s$/.test(out) ? " " : "";
        }
        out += piece.str;
        end = Math.max(end ?? piece.end, piece.end);
      }
      return out
        .replace(/[ \u00a0]{2,}/g, " ")
        .replace(/ ?\t ?/g, "\t")
        .trim();
    })
    .filter((line) => line.length > 0)
    .join("\n");
}

/** @param {unknown} error */
function refusalFor(error) {
  const name = typeof error === "object" && error !== null ? String(error.name ?? "") : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "PasswordException") return { ok: false, reason: "password", detail: message };
  return { ok: false, reason: "damaged", detail: `${name || "Error"}: ${message}` };
}
