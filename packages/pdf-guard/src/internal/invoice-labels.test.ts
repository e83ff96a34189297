import { describe, expect, it } from "vitest";
import { classifyLabel } from "./invoice-labels.js";

const kinds = (labels: string[]) => labels.map((l) => classifyLabel(l));

describe("classifyLabel", () => {
  it("knows the total including VAT in four languages", () => {
    expect(
      kinds([
        "Totaal incl. btw",
        "Totaalbedrag",
        "Grand total",
        "Invoice total",
        "Bruttosumme",
        "Rechnungsbetrag",
        "Gesamtbetrag",
        "Total TTC",
        "Montant total",
      ]),
    ).toEqual(["gross", "gross", "gross", "gross", "gross", "gross", "gross", "gross", "gross"]);
  });

  it("knows the amount due in four languages", () => {
    expect(
      kinds([
        "Totaal te betalen:",
        "Nog te betalen",
        "Openstaand bedrag",
        "Amount due",
        "Balance due",
        "Total due",
        "Zahlbetrag",
        "Zu zahlen",
        "Net à payer",
        "Reste à payer",
      ]),
    ).toEqual(["due", "due", "due", "due", "due", "due", "due", "due", "due", "due"]);
  });

  it("never takes a net total or the VAT for the total", () => {
    expect(
      kinds([
        "Subtotaal",
        "Totaal excl. btw",
        "Totaal ex BTW:",
        "Net total:",
        "Subtotal",
        "Nettosumme",
        "Summe netto",
        "Rechnungssumme ohne USt.",
        "Total HT",
      ]),
    ).toEqual(["net", "net", "net", "net", "net", "net", "net", "net", "net"]);
    expect(kinds(["BTW 21%", "VAT total:", "USt. (19 %)", "MwSt.", "TVA 20 %"])).toEqual([
      "vat",
      "vat",
      "vat",
      "vat",
      "vat",
    ]);
  });

  it("knows amounts already paid", () => {
    expect(kinds(["Reeds betaald", "Amount paid", "Erhaltene Anzahlungen", "Acompte versé"])).toEqual([
      "paid",
      "paid",
      "paid",
      "paid",
    ]);
  });

  it("takes a plain total as a total, and letter-spaced words whole", () => {
    expect(kinds(["Totaal", "Total:", "Summe"])).toEqual(["total", "total", "total"]);
    expect(kinds(["Br uttosumme", "Zahlbetr ag"])).toEqual(["gross", "due"]);
  });

  it("reads nothing in text that is no label", () => {
    expect(
      kinds([
        "Omschrijving",
        "Aantal Dagen:",
        "",
        "12345",
        "Bitte überweisen Sie den Betrag bis zum Fälligkeitsdatum auf unser Konto",
      ]),
    ).toEqual([null, null, null, null, null]);
  });
});
