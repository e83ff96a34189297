import { describe, expect, it } from "vitest";
import { normaliseReference, readDocumentFacts } from "./document-facts.js";

describe("readDocumentFacts", () => {
  it("takes the grand total over subtotals, VAT lines and a plain total", () => {
    const facts = readDocumentFacts(
      [
        "Subtotaal: € 1.000,00",
        "BTW 21%: € 210,00",
        "Totaal: € 1.210,00",
        "Totaal te betalen: € 1.200,00",
      ].join("\n"),
    );
    expect(facts.totalCents).toBe(120000);
  });

  it("reads a total whose amount pdf.js put on the next line", () => {
    expect(readDocumentFacts("Te betalen\n€ 99,95\nBedankt").totalCents).toBe(9995);
  });

  it("ignores 'Totaal excl. BTW' and 'Total VAT'", () => {
    expect(readDocumentFacts("Totaal excl. BTW: € 100,00\nTotal VAT: € 21,00").totalCents).toBeNull();
    expect(readDocumentFacts("Totaal incl. BTW: € 121,00").totalCents).toBe(12100);
  });

  it("reads labelled invoice numbers, VAT numbers and postcodes", () => {
    const facts = readDocumentFacts(
      [
        "Factuurnummer: F-2026-001",
        "Invoice no. INV/7",
        "BTW-nummer: NL 0000.99.998.B57",
        "VAT number: DE123456789",
        "1234 AB Voorbeeldstad",
        "9999ZZ",
        "2026 en verder",
      ].join("\n"),
    );
    expect(facts.invoiceNumbers).toEqual(["F-2026-001", "INV/7"]);
    expect(facts.vatNumbers).toEqual(["NL000099998B57", "DE123456789"]);
    expect(facts.postcodes).toEqual(["1234AB", "9999ZZ"]);
  });

  it("reads the signs of a 14-day letter", () => {
    const facts = readDocumentFacts(
      [
        "Aanmaning",
        "Betaal binnen 14 (veertien) dagen na ontvangst van deze brief.",
        "Betaalt u niet, dan dragen wij de zaak over.",
        "De buitengerechtelijke incassokosten bedragen",
        "€ 40,00",
      ].join("\n"),
    );
    expect(facts.wik).toEqual({
      termDays: 14,
      namesConsequence: true,
      mentionsCosts: true,
      costsCents: 4000,
      reminderWord: true,
    });
    expect(readDocumentFacts("binnen twee weken").wik.termDays).toBe(14);
    expect(readDocumentFacts("binnen 3 weken").wik.termDays).toBe(21);
  });
});

describe("normaliseReference", () => {
  it("drops spaces and dots and upper-cases", () => {
    expect(normaliseReference("f-2026 001")).toBe("F-2026001");
    expect(normaliseReference("nl.0000.99998.b57")).toBe("NL000099998B57");
  });
});
