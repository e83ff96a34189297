// ai_document_mismatch between an invoice and the 14-day letter (issue 30, point 6): the invoice
// number, the debtor's address and the seller's VAT number, taken from the invoice's embedded
// e-invoice XML where it has one. Every PDF is made here with pdf-lib and read back by pdf.js.
import { describe, expect, it } from "vitest";
import type { CheckableAttachment, DeclaredDebtor, DeclaredInvoice } from "./document-check-types.js";
import { inspectPdf } from "./inspect-pdf.js";
import {
  ciiInvoiceXml,
  type EInvoiceFacts,
  makeLayoutPdf,
  ublInvoiceXml,
} from "./internal/testing/e-invoices.js";
import { makeTextPdf, wikLetterLines } from "./internal/testing/fixtures.js";
import { silentLogger } from "./logger.js";
import { createRulesDocumentChecker } from "./rules-document-checker.js";
import { runDocumentCheck } from "./run-document-check.js";

const debtor: DeclaredDebtor = {
  type: "business",
  company_name: "Voorbeeld B.V.",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
};

async function read(bytes: Uint8Array, index: number, type: CheckableAttachment["document_type"]) {
  const r = await inspectPdf(bytes);
  if (!r.ok) throw new Error(r.code);
  return {
    index,
    filename: type === "invoice" ? "factuur.pdf" : "aanmaning.pdf",
    document_type: type,
    text: r.text,
    page_count: r.page_count,
    embedded_xml: r.embedded_xml,
  } satisfies CheckableAttachment;
}

/** An e-invoice whose printed text names only the buyer's VAT number, as many invoices do. */
async function eInvoice(syntax: "cii" | "ubl", facts: EInvoiceFacts) {
  const xml = syntax === "cii" ? ciiInvoiceXml(facts) : ublInvoiceXml(facts);
  const pdf = await makeLayoutPdf({
    pages: [
      [
        { text: "Leverancier B.V.", x: 50, y: 800 },
        { text: `Factuurnummer: ${facts.number}`, x: 50, y: 760 },
        { text: "Uw btw-nummer: NL000055556B01", x: 50, y: 740 },
        { text: "Totaal", x: 300, y: 400 },
        { text: "€ 121,00", x: 480, y: 400 },
      ],
    ],
    attachments: [{ name: syntax === "cii" ? "factur-x.xml" : "invoice.xml", content: xml }],
  });
  return read(pdf, 0, "invoice");
}

async function letter(facts: { invoice: string; vat?: string; debtor?: string[] }) {
  const lines = wikLetterLines({ principal: "€ 121,00", costs: "€ 40,00", ...facts });
  return read(await makeTextPdf({ pages: [lines] }), 1, "wik_letter");
}

function check(invoices: DeclaredInvoice[], attachments: CheckableAttachment[]) {
  return runDocumentCheck(
    createRulesDocumentChecker(),
    { debtors: [debtor], invoices, attachments },
    { logger: silentLogger },
  );
}

const one = [{ invoice_number: "F-30-7", amount_cents: 12100 }];
const facts = { number: "F-30-7", total: "121.00", due: "121.00", buyerPostcode: "9999 ZZ" };

describe("ai_document_mismatch between an e-invoice and the 14-day letter", () => {
  it("gives none when the letter names the invoice, the buyer's postcode and the seller's VAT number", async () => {
    for (const syntax of ["cii", "ubl"] as const) {
      const warnings = await check(one, [
        await eInvoice(syntax, facts),
        await letter({ invoice: "F-30-7", vat: "NL000099998B57" }),
      ]);
      expect(warnings, syntax).toEqual([]);
    }
  });

  it("compares the seller's VAT number from the XML, not the buyer's from the text", async () => {
    const warnings = await check(one, [
      await eInvoice("ubl", facts),
      await letter({ invoice: "F-30-7", vat: "NL000011112B22" }),
    ]);
    expect(warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'Het btw-nummer op "factuur.pdf" (NL000099998B57) verschilt van dat op de aanmaning "aanmaning.pdf" (NL000011112B22).',
        invoice_number: "F-30-7",
      },
    ]);
  });

  it("finds a letter addressed elsewhere than the buyer of the XML", async () => {
    const warnings = await check(one, [
      await eInvoice("cii", facts),
      await letter({
        invoice: "F-30-7",
        vat: "NL000099998B57",
        debtor: ["Voorbeeld B.V.", "Andereweg 5", "8888 YY Elders"],
      }),
    ]);
    expect(warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'Het adres van de debiteur verschilt tussen "factuur.pdf" en de aanmaning "aanmaning.pdf": de factuur is gericht aan postcode 9999 ZZ, die niet op de aanmaning staat.',
        invoice_number: "F-30-7",
      },
    ]);
  });

  it("finds a letter about another declared invoice than the one attached", async () => {
    const two = [...one, { invoice_number: "F-30-8", amount_cents: 5000 }];
    const warnings = await check(two, [
      await eInvoice("cii", facts),
      await letter({ invoice: "F-30-8", vat: "NL000099998B57" }),
    ]);
    expect(warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'Het factuurnummer op "factuur.pdf" (F-30-7) staat niet in de aanmaning "aanmaning.pdf", die factuurnummer F-30-8 noemt.',
        invoice_number: "F-30-7",
      },
    ]);
  });
});
