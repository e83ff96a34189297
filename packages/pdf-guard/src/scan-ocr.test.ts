// Scans (issue 30, point 5; decision pdf-guard-ocr): a PDF without a text layer is read by OCR in
// the PDF engine's workers, and the document check compares what it read. The scan is made here:
// an invoice drawn on a canvas at 200 dpi and stored as one JPEG per page, no text at all. The
// limits are generous so the test never depends on the machine's speed (speed is in the benchmark).
import { afterAll, describe, expect, it } from "vitest";
import { checkAttachments } from "./check-attachments.js";
import type { CheckableAttachment, DeclaredDebtor } from "./document-check-types.js";
import { inspectPdf } from "./inspect-pdf.js";
import { makeTextPdf, toBase64 } from "./internal/testing/fixtures.js";
import { makeScannedPdf } from "./internal/testing/scans.js";
import { silentLogger } from "./logger.js";
import { createPdfEngine } from "./node.js";
import { createRulesDocumentChecker } from "./rules-document-checker.js";
import { runDocumentCheck } from "./run-document-check.js";

const engine = createPdfEngine({ workers: 1 });
afterAll(() => engine.close());
const limits = { parseTimeoutMs: 300_000, ocrBudgetMs: 240_000 };

const debtor: DeclaredDebtor = {
  type: "business",
  company_name: "Voorbeeld B.V.",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
};

const scan = await makeScannedPdf({
  pages: [
    [
      "Voorbeeld Installatietechniek B.V.",
      "Industrieweg 1, 1234 AB Voorbeeldstad",
      "",
      "Voorbeeld B.V.",
      "Teststraat 10",
      "9999 ZZ Testdorp",
      "",
      "FACTUUR",
      "Factuurnummer: F-2026-0042",
      "Factuurdatum: 15-01-2026",
    ],
    [
      "Omschrijving: onderhoud cv-ketel",
      "",
      [
        { text: "Subtotaal", x: 300 },
        { text: "€ 1.000,00", x: 460 },
      ],
      [
        { text: "BTW 21%", x: 300 },
        { text: "€ 210,00", x: 460 },
      ],
      [
        { text: "Totaal te betalen", x: 300 },
        { text: "€ 1.210,00", x: 460 },
      ],
    ],
  ],
});

describe("scans read by OCR", () => {
  it("reads each page of an image-only PDF, columns on one line, and says which pages it read", async () => {
    const r = await inspectPdf(scan, { engine, limits });
    if (!r.ok) throw new Error(r.code);
    expect(r.ocr).toEqual({ pages: [1, 2], incomplete: false, unavailable: null });
    expect(r.pages[0]?.split("\n")).toContain("Factuurnummer: F-2026-0042");
    expect(r.pages[1]?.split("\n").slice(-2)).toEqual(["BTW 21%\t€ 210,00", "Totaal te betalen\t€ 1.210,00"]);
  }, 300_000);

  it("leaves a text PDF's blank page alone: nothing to recognise without an image", async () => {
    const text = await makeTextPdf({ pages: [["Factuurnummer: F-2026-0042", "Totaal € 121,00"], []] });
    const r = await inspectPdf(text, { engine, limits });
    expect(r.ok && [r.pages, r.ocr]).toEqual([
      ["Factuurnummer: F-2026-0042\nTotaal € 121,00", ""],
      { pages: [], incomplete: false, unavailable: null },
    ]);
  }, 300_000);

  it("accepts a scan whose budget is spent, its pages unread, and never refuses it", async () => {
    // Less than a page's least time: no page is begun.
    const r = await inspectPdf(scan, { engine, limits: { ...limits, ocrBudgetMs: 1 } });
    expect(r.ok && [r.pages, r.ocr]).toEqual([["", ""], { pages: [], incomplete: true, unavailable: null }]);
  }, 300_000);

  it("leaves a scan unread under a memory budget too small for OCR, accepts it, and reads the next one", async () => {
    // 80 MiB: the worker's own memory while it renders an A4 page at 200 dpi (about 50 MiB) leaves
    // too little for the recogniser, which needs over 50 MiB for its models alone and about 100
    // MiB once it has read a page (decision pdf-guard-ocr, "Memory").
    const tight = await inspectPdf(scan, { engine, limits: { ...limits, parseMemoryMb: 80 } });
    expect(tight.ok && [tight.pages, tight.ocr]).toEqual([
      ["", ""],
      { pages: [], incomplete: true, unavailable: null },
    ]);
    // The worker itself was not ended: the next file needs no new thread.
    const before = engine.stats().started;
    const r = await inspectPdf(scan, { engine, limits });
    if (!r.ok) throw new Error(r.code);
    expect(r.ocr).toEqual({ pages: [1, 2], incomplete: false, unavailable: null });
    expect(r.pages[1]?.split("\n").slice(-1)).toEqual(["Totaal te betalen\t€ 1.210,00"]);
    expect(engine.stats().started).toBe(before);
  }, 300_000);

  it("reads no scan with an OCR budget of 0", async () => {
    const r = await inspectPdf(scan, { engine, limits: { ...limits, ocrBudgetMs: 0 } });
    expect(r.ok && [r.pages, r.ocr]).toEqual([["", ""], { pages: [], incomplete: false, unavailable: null }]);
  }, 300_000);

  it("finds a declared amount 10% above the scanned total, and nothing at the total", async () => {
    const checked = await checkAttachments(
      [{ filename: "scan.pdf", content_base64: toBase64(scan), document_type: "invoice" }],
      { engine, limits },
    );
    const accepted = checked.attachments[0];
    if (accepted?.status !== "accepted") throw new Error("not accepted");
    expect(accepted.ocr_pages).toEqual([1, 2]);
    const attachment: CheckableAttachment = accepted;
    const check = (amount: number) =>
      runDocumentCheck(
        createRulesDocumentChecker(),
        {
          debtors: [debtor],
          invoices: [{ invoice_number: "F-2026-0042", amount_cents: amount }],
          attachments: [attachment],
        },
        { logger: silentLogger },
      );
    expect(await check(121_000)).toEqual([]);
    expect(await check(133_100)).toEqual([
      {
        code: "ai_invoice_mismatch",
        message:
          'Het totaalbedrag in bijlage "scan.pdf" (€ 1.210,00) wijkt af van het opgegeven bedrag van factuur F-2026-0042 (€ 1.331,00). Het opgegeven bedrag is aangehouden.',
        invoice_number: "F-2026-0042",
      },
    ]);
  }, 300_000);
});
