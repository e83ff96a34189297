import { inspectPdf } from "@incasso/pdf-guard";
import { PDFPage } from "pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWikLetterPdf } from "./render-wik-letter.js";
import { composeWikLetter, type WikLetterInput } from "./wik-letter.js";

// The letter shows everything it prints within its margins (issue 31): the longest values the
// spec allows (CreateOrder field lengths: company_name 200, street 150, house_number 10, suffix 10,
// postal_code 12, city 100, reference 100, invoice_number 50) are wrapped, never cut off.
const PAGE_WIDTH = 595.28;
const MARGIN = 64;

/** `n` characters of words of `word` separated by spaces, or one word when `word` is "" . */
function longText(prefix: string, n: number, spaced = true): string {
  let out = prefix;
  let i = 0;
  while (out.length < n) out += spaced && i++ % 9 === 8 ? " " : String.fromCharCode(65 + (out.length % 26));
  return out.slice(0, n).trimEnd().padEnd(n, "Z");
}

const companyName = longText("Handelsonderneming ", 200);
const unbrokenName = longText("W", 200, false);
const street = longText("Burgemeester ", 150);
const city = longText("Sint-", 100);
const reference = longText("REF-", 100, false);
const invoiceNumber = longText("FACTUUR-", 50, false);
const input: WikLetterInput = {
  letterDate: "2026-11-21",
  caseNumber: "2026-000777",
  reference,
  creditorName: companyName,
  debtors: [
    {
      name: companyName,
      address: {
        street,
        house_number: "1234567890",
        house_number_suffix: "ABCDEFGHIJ",
        postal_code: "123456789012",
        city,
        country: "BE",
      },
    },
    { name: unbrokenName, address: null },
  ],
  invoices: [
    { invoiceNumber, invoiceDate: "2026-10-01", dueDate: "2026-10-15", amountCents: 123_456_789 },
    { invoiceNumber: "F-2", invoiceDate: "2026-10-02", dueDate: "2026-10-16", amountCents: 100 },
  ],
  paidCents: 0,
  sender: {
    name: companyName,
    street,
    postalCode: "1015 AA",
    city,
    iban: "NL91ABNA0417164300",
    bic: "ABNANL2A",
    kvkNumber: "12345678",
    phone: "020 123 4567",
    email: `${longText("info", 60, false)}@example.nl`,
  },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("renderWikLetterPdf with the longest values the spec allows", () => {
  it("keeps every drawn line within the margins and prints all of the text", async () => {
    const drawn: { text: string; right: number; x: number }[] = [];
    const original = PDFPage.prototype.drawText;
    vi.spyOn(PDFPage.prototype, "drawText").mockImplementation(function (this: PDFPage, text, options) {
      const size = options?.size ?? 12;
      const width = options?.font ? options.font.widthOfTextAtSize(text, size) : 0;
      drawn.push({ text, x: options?.x ?? 0, right: (options?.x ?? 0) + width });
      return original.call(this, text, options);
    });
    const bytes = await renderWikLetterPdf(composeWikLetter(input));

    expect(drawn.length).toBeGreaterThan(40);
    const past = drawn.filter((d) => d.x < MARGIN - 0.01 || d.right > PAGE_WIDTH - MARGIN + 0.01);
    expect(past).toEqual([]);

    const inspected = await inspectPdf(bytes);
    if (!inspected.ok) throw new Error(inspected.message);
    // Lines broken inside a word join again without the break.
    const text = inspected.text.replace(/\s+/g, "");
    for (const value of [companyName, unbrokenName, street, city, reference, input.sender?.email]) {
      expect(text).toContain(String(value).replace(/\s+/g, ""));
    }
    // The invoice number continues on a next line of its own column; the text is read a row at a
    // time, so the cells beside it come between its pieces. Its pieces, in the order drawn, make it
    // whole, and each is in the text.
    const first = drawn.findIndex((d) => d.text.startsWith("FACTUUR-"));
    const pieces = [drawn[first]?.text ?? ""];
    for (const d of drawn.slice(first + 1)) {
      const rest = invoiceNumber.slice(pieces.join("").length);
      if (rest === "") break;
      if (rest.startsWith(d.text)) pieces.push(d.text);
    }
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(invoiceNumber);
    for (const piece of pieces) expect(text).toContain(piece);
    expect(text).toContain("1234567890ABCDEFGHIJ");
    expect(text).toContain("123456789012");
    expect(text).toContain("€1.234.567,89");
  });
});
