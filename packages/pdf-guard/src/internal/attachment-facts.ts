import type { CheckableAttachment } from "../document-check-types.js";
import { type DocumentFacts, normaliseReference, readDocumentFacts } from "./document-facts.js";
import { readInvoiceXml, type StructuredInvoice } from "./invoice-xml.js";

/**
 * The facts of one attachment, structured data first (issue 30, point 1): when the PDF carries an
 * e-invoice's XML (Factur-X / ZUGFeRD, UBL / SI-UBL), its total, amount due, invoice number, seller
 * VAT number and buyer come from the XML exactly, and the text adds only what the XML lacks (the
 * postcodes, the signs of a 14-day letter). Without XML everything comes from the text.
 *
 * @example
 * const facts = readAttachmentFacts({ index: 0, filename: "f.pdf", document_type: "invoice", text: "Totaal € 121,00", page_count: 1 });
 * facts.totalCents; // 12100
 */
export function readAttachmentFacts(attachment: CheckableAttachment): DocumentFacts {
  const fromText = readDocumentFacts(attachment.text, { ocr: (attachment.ocr_pages ?? []).length > 0 });
  const invoice = structuredInvoice(attachment);
  if (!invoice) return fromText;
  const number = invoice.invoiceNumber === null ? [] : [normaliseReference(invoice.invoiceNumber)];
  const hasAmounts = invoice.totalCents !== null || invoice.dueCents !== null;
  return {
    ...fromText,
    ...(hasAmounts
      ? {
          totalCents: invoice.totalCents ?? invoice.dueCents,
          dueCents: invoice.dueCents,
          paidCents: invoice.paidCents !== null && invoice.paidCents > 0 ? invoice.paidCents : null,
          currency: invoice.currency,
          source: "xml" as const,
        }
      : {}),
    buyerName: invoice.buyerName,
    sellerVatNumbers: invoice.sellerVatNumbers,
    structuredInvoiceNumber: number[0] ?? null,
    buyerPostcode: dutchPostcode(invoice.buyerPostcode, invoice.buyerCountry),
    invoiceNumbers: unique([...number, ...fromText.invoiceNumbers]),
    vatNumbers: unique([...invoice.sellerVatNumbers, ...fromText.vatNumbers]),
  };
}

/** The first embedded XML file that is a CII or UBL invoice, or null. */
export function structuredInvoice(attachment: CheckableAttachment): StructuredInvoice | null {
  for (const file of attachment.embedded_xml ?? []) {
    const invoice = readInvoiceXml(file.xml);
    if (invoice) return invoice;
  }
  return null;
}

// A buyer's postcode that is a Dutch one (BT-55 NL, or no country given), as "1234AB": the form
// the letter's postcodes are read in (document-facts.ts).
function dutchPostcode(postcode: string | null, country: string | null): string | null {
  if (postcode === null || (country !== null && country.toUpperCase() !== "NL")) return null;
  const m = /^\s*([1-9]\d{3})\s?([A-Za-z]{2})\s*$/.exec(postcode);
  return m ? `${m[1]}${(m[2] as string).toUpperCase()}` : null;
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}
