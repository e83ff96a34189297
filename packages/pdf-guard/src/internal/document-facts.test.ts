import { describe, expect, it } from "vitest";
import { normaliseReference, readDocumentFacts } from "./document-facts.js";

describe("readDocumentFacts", () => {
  it("takes the total over subtotals and VAT lines, and the amount due apart from it", () => {
    const facts = readDocumentFacts(
      [
        "Subtotaal: € 1.000,00",
        "BTW 21%: € 210,00",
        "Totaal: € 1.210,00",
        "Totaal te betalen: € 1.200,00",
      ].join("\n"),
    );
    expect(facts.totalCents).toBe(121000);
    expect(facts.dueCents).toBe(120000);
    expect(facts.source).toBe("text");
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
      termStart: "after_receipt",
      namesConsequence: true,
      mentionsCosts: true,
      costsCents: 4000,
      reminderWord: true,
    });
    expect(readDocumentFacts("binnen twee weken").wik.termDays).toBe(14);
    expect(readDocumentFacts("binnen 3 weken").wik.termDays).toBe(21);
  });

  it("takes the term from the sentence that asks for payment, not any period in the letter", () => {
    const wik = (text: string) => readDocumentFacts(text).wik;
    expect(
      wik("Wij verzoeken u binnen 7 dagen te betalen. De factuur is al 30 dagen vervallen.").termDays,
    ).toBe(7);
    expect(wik("Betaal binnen 7 dagen; de factuur is al 30 dagen vervallen.").termDays).toBe(7);
    // Two terms to pay: the shortest binds the debtor.
    expect(wik("Betaal binnen 14 dagen een deel en binnen 10 dagen de rest.").termDays).toBe(10);
    // A period that is no term to act within is not a term at all.
    expect(wik("De factuur is sinds 30 dagen vervallen.").termDays).toBeNull();
    // A payment request wins over a term elsewhere.
    expect(
      wik("U heeft binnen 3 dagen bezwaar te maken.\nWij vragen u binnen 14 dagen te betalen.").termDays,
    ).toBe(14);
  });

  it("reads when the term starts", () => {
    const start = (text: string) => readDocumentFacts(text).wik.termStart;
    expect(start("Betaal binnen 14 dagen na ontvangst van deze brief.")).toBe("after_receipt");
    expect(start("Betaal binnen 14 dagen, te rekenen vanaf de dag na ontvangst.")).toBe("after_receipt");
    expect(start("Betaal binnen 14 dagen na dagtekening van deze brief.")).toBe("after_letter_date");
    expect(start("Betaal binnen 14 dagen na de datum van deze brief.")).toBe("after_letter_date");
    expect(start("Betaal binnen 14 dagen vanaf de datum van deze brief.")).toBe("from_letter_date");
    expect(start("Betaal binnen 14 dagen vanaf heden.")).toBe("from_letter_date");
    expect(start("Please pay within 14 days of receiving this letter.")).toBe("after_receipt");
    expect(start("Please pay within 14 days of the date of this letter.")).toBe("after_letter_date");
    expect(start("Betaal binnen 14 dagen.")).toBeNull();
  });

  it("takes the costs amount only from the costs sentence and skips amounts labelled otherwise", () => {
    const costs = (text: string) => readDocumentFacts(text).wik.costsCents;
    expect(costs("De incassokosten bedragen 15% over de hoofdsom.\nOpenstaand: € 121,00")).toBeNull();
    expect(costs("De incassokosten bedragen 15%\nOpenstaand: € 121,00")).toBeNull();
    expect(costs("De incassokosten bedragen 15% over de hoofdsom van € 121,00, dat is € 40,00.")).toBe(4000);
    expect(costs("Openstaand € 121,00 en incassokosten € 40,00.")).toBe(4000);
    expect(costs("Wij brengen € 40,00 aan incassokosten in rekening.")).toBe(4000);
    expect(costs("De buitengerechtelijke incassokosten bedragen\n€ 48,40 (inclusief btw).")).toBe(4840);
  });
});

describe("normaliseReference", () => {
  it("drops spaces and dots and upper-cases", () => {
    expect(normaliseReference("f-2026 001")).toBe("F-2026001");
    expect(normaliseReference("nl.0000.99998.b57")).toBe("NL000099998B57");
  });
});
