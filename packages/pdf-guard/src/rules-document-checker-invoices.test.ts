// The rules checker on invoices as they come from other systems (issue 30): e-invoices with
// embedded CII or UBL XML, column layouts, labels in four languages and paid invoices. Every PDF is
// made here with pdf-lib and read back by pdf.js.
import { describe, expect, it } from "vitest";
import type { CheckableAttachment, DeclaredDebtor, DeclaredInvoice } from "./document-check-types.js";
import { inspectPdf } from "./inspect-pdf.js";
import {
  ciiInvoiceXml,
  type LayoutPdfOptions,
  makeLayoutPdf,
  type PlacedText,
  ublInvoiceXml,
} from "./internal/testing/e-invoices.js";
import { silentLogger } from "./logger.js";
import { createRulesDocumentChecker } from "./rules-document-checker.js";
import { runDocumentCheck } from "./run-document-check.js";

const debtor: DeclaredDebtor = {
  type: "business",
  company_name: "Voorbeeld B.V.",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
};

/** Rows of an invoice: a label at the left margin and its amount in a column at the right. */
function rows(entries: Array<[string, string]>, top = 400): PlacedText[] {
  return entries.flatMap(([label, amount], i) => [
    { text: label, x: 300, y: top - i * 16 },
    { text: amount, x: 480, y: top - i * 16 },
  ]);
}

function header(number: string): PlacedText[] {
  return [
    { text: "Leverancier B.V.", x: 50, y: 800 },
    { text: `Factuurnummer: ${number}`, x: 50, y: 760 },
    { text: "Voorbeeld B.V., Teststraat 10, 9999 ZZ Testdorp", x: 50, y: 740 },
  ];
}

async function invoicePdf(options: LayoutPdfOptions): Promise<CheckableAttachment> {
  const r = await inspectPdf(await makeLayoutPdf(options));
  if (!r.ok) throw new Error(r.code);
  return {
    index: 0,
    filename: "factuur.pdf",
    document_type: "invoice",
    text: r.text,
    page_count: r.page_count,
    embedded_xml: r.embedded_xml,
  };
}

function check(invoices: DeclaredInvoice[], attachment: CheckableAttachment) {
  return runDocumentCheck(
    createRulesDocumentChecker(),
    { debtors: [debtor], invoices, attachments: [attachment] },
    { logger: silentLogger },
  );
}

describe("rules document checker on real-world invoices", () => {
  it("reads the embedded Factur-X (CII) XML before the text, and finds the invoice by its number there", async () => {
    // The printed total disagrees with the XML: the structured data governs.
    const pdf = await invoicePdf({
      pages: [[{ text: "Rechnung", x: 50, y: 800 }, ...rows([["Gesamtbetrag", "999,00 €"]])]],
      attachments: [
        {
          name: "factur-x.xml",
          content: ciiInvoiceXml({ number: "RE-2026-7", total: "1053.00", due: "1053.00" }),
        },
      ],
    });
    expect(pdf.embedded_xml?.map((f) => f.filename)).toEqual(["factur-x.xml"]);
    const other = { invoice_number: "F-1", amount_cents: 5000 };
    expect(await check([other, { invoice_number: "RE-2026-7", amount_cents: 105300 }], pdf)).toEqual([]);
    expect(await check([other, { invoice_number: "RE-2026-7", amount_cents: 115830 }], pdf)).toEqual([
      {
        code: "ai_invoice_mismatch",
        message:
          'Het totaalbedrag in bijlage "factuur.pdf" (€ 1.053,00) wijkt af van het opgegeven bedrag van factuur RE-2026-7 (€ 1.158,30). Het opgegeven bedrag is aangehouden.',
        invoice_number: "RE-2026-7",
      },
    ]);
  });

  it("reads an embedded UBL (SI-UBL) invoice", async () => {
    const pdf = await invoicePdf({
      pages: [header("2026-17")],
      attachments: [
        {
          name: "2026-17.xml",
          content: ublInvoiceXml({ number: "2026-17", total: "121.00", due: "121.00" }),
        },
      ],
    });
    expect(await check([{ invoice_number: "2026-17", amount_cents: 12100 }], pdf)).toEqual([]);
    const warnings = await check([{ invoice_number: "2026-17", amount_cents: 21100 }], pdf);
    expect(warnings.map((w) => [w.code, w.invoice_number])).toEqual([["ai_invoice_mismatch", "2026-17"]]);
  });

  it("warns ai_invoice_paid, not a mismatch, when the full total is declared for an invoice shown paid", async () => {
    const pdf = await invoicePdf({
      pages: [header("F-2026-9")],
      attachments: [
        {
          name: "factur-x.xml",
          content: ciiInvoiceXml({ number: "F-2026-9", total: "121.00", due: "21.00", prepaid: "100.00" }),
        },
      ],
    });
    expect(await check([{ invoice_number: "F-2026-9", amount_cents: 12100 }], pdf)).toEqual([
      {
        code: "ai_invoice_paid",
        message:
          'Volgens bijlage "factuur.pdf" is factuur F-2026-9 al gedeeltelijk betaald: het totaal is € 121,00, nog te betalen € 21,00. Het opgegeven bedrag (€ 121,00) is het volle totaal en is aangehouden.',
        invoice_number: "F-2026-9",
      },
    ]);
    // Declaring what is still open is no mismatch.
    expect(await check([{ invoice_number: "F-2026-9", amount_cents: 2100 }], pdf)).toEqual([]);
  });

  it("reads a Dutch invoice in columns, with an amount of 1,000 or more without a thousands separator", async () => {
    const pdf = await invoicePdf({
      pages: [
        [
          ...header("F-2026-001"),
          ...rows([
            ["Totaal ex BTW:", "870,25"],
            ["BTW (21,00%):", "182,75"],
            ["Totaal te betalen:", "1053,00"],
          ]),
        ],
      ],
    });
    expect(pdf.text).toContain("Totaal te betalen:\t1053,00");
    expect(await check([{ invoice_number: "F-2026-001", amount_cents: 105300 }], pdf)).toEqual([]);
    const warnings = await check([{ invoice_number: "F-2026-001", amount_cents: 87025 }], pdf);
    expect(warnings.map((w) => w.message)).toEqual([
      'Het totaalbedrag in bijlage "factuur.pdf" (€ 1.053,00) wijkt af van het opgegeven bedrag van factuur F-2026-001 (€ 870,25). Het opgegeven bedrag is aangehouden.',
    ]);
  });

  it("reads an English invoice in dollars with the amount drawn before its label and a wrapped label", async () => {
    const pdf = await invoicePdf({
      pages: [
        [
          { text: "Invoice no. INV-88", x: 50, y: 800 },
          // Drawn in this order, right column first: pdf.js reports them so.
          { text: "$1,053.00", x: 480, y: 400 },
          { text: "Total amount", x: 300, y: 416 },
          { text: "payable", x: 300, y: 400 },
          { text: "Subtotal", x: 300, y: 440 },
          { text: "$870.25", x: 480, y: 440 },
        ],
      ],
    });
    expect(await check([{ invoice_number: "INV-88", amount_cents: 105300 }], pdf)).toEqual([]);
    const warnings = await check([{ invoice_number: "INV-88", amount_cents: 150300 }], pdf);
    expect(warnings.map((w) => w.message)).toEqual([
      'Het totaalbedrag in bijlage "factuur.pdf" (USD 1.053,00) wijkt af van het opgegeven bedrag van factuur INV-88 (€ 1.503,00). Het opgegeven bedrag is aangehouden.',
    ]);
  });

  it("takes TOTAL TTC over TOTAL HT on a French invoice, and Bruttosumme on a German one", async () => {
    const french = await invoicePdf({
      pages: [
        [
          ...header("FA-2026-1"),
          ...rows([
            ["TOTAL HT", "1 000,00 €"],
            ["TVA 20 %", "200,00 €"],
            ["TOTAL TTC", "1 200,00 €"],
          ]),
        ],
      ],
    });
    expect(await check([{ invoice_number: "FA-2026-1", amount_cents: 120000 }], french)).toEqual([]);
    const german = await invoicePdf({
      pages: [
        [
          ...header("R-1"),
          ...rows([
            ["Nettosumme", "885,00 €"],
            ["USt. 19 %", "168,15 €"],
            ["Bruttosumme", "1053,15 €"],
          ]),
        ],
      ],
    });
    expect(await check([{ invoice_number: "R-1", amount_cents: 105315 }], german)).toEqual([]);
    const caught = await check([{ invoice_number: "R-1", amount_cents: 88500 }], german);
    expect(caught.map((w) => w.code)).toEqual(["ai_invoice_mismatch"]);
  });

  it("warns ai_invoice_paid when the text shows the invoice paid and the full total is declared", async () => {
    const pdf = await invoicePdf({
      pages: [
        [
          ...header("F-2026-5"),
          ...rows([
            ["Totaal", "€ 121,00"],
            ["Reeds betaald", "€ 121,00"],
            ["Te betalen", "€ 0,00"],
          ]),
        ],
      ],
    });
    const warnings = await check([{ invoice_number: "F-2026-5", amount_cents: 12100 }], pdf);
    expect(warnings).toEqual([
      {
        code: "ai_invoice_paid",
        message:
          'Volgens bijlage "factuur.pdf" is factuur F-2026-5 al betaald: het totaal is € 121,00, nog te betalen € 0,00. Het opgegeven bedrag (€ 121,00) is het volle totaal en is aangehouden.',
        invoice_number: "F-2026-5",
      },
    ]);
  });
});
