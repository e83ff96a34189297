import { describe, expect, it } from "vitest";
import { readInvoiceTotals } from "./invoice-totals.js";

describe("readInvoiceTotals", () => {
  it("takes the total over net totals and VAT, in columns", () => {
    expect(
      readInvoiceTotals("Totaal ex BTW:\t330,00\nBTW (21,00%):\t69,30\nTotaal te betalen:\t399,30"),
    ).toEqual({
      totalCents: 39930,
      dueCents: 39930,
      paidCents: null,
      currency: null,
    });
  });

  it("never takes the net total, even as the largest amount: 'TOTAL TTC' wins over 'TOTAL HT'", () => {
    expect(
      readInvoiceTotals("TOTAL HT\t1 000,00 €\nTVA 20 %\t200,00 €\nTOTAL TTC\t1 200,00 €").totalCents,
    ).toBe(120000);
    expect(readInvoiceTotals("Subtotal\t$1,500.00\nTax\t$0.00\nTotal\t$1,200.00").totalCents).toBe(120000);
  });

  it("reads German labels and amounts without thousands separators", () => {
    const totals = readInvoiceTotals(
      "Nettosumme\t885,00 €\nUmsatzsteuer 19 %\t168,00 €\nBruttosumme\t1053,00 €",
    );
    expect([totals.totalCents, totals.currency]).toEqual([105300, "EUR"]);
  });

  it("reads an amount before its label, and a label wrapped over two lines", () => {
    expect(readInvoiceTotals("€ 121,00\tTotaal incl. btw").totalCents).toBe(12100);
    expect(readInvoiceTotals("Totaal te\nbetalen\t€ 1.053,00").totalCents).toBe(105300);
  });

  it("tells the amount due and a payment apart from the total", () => {
    expect(
      readInvoiceTotals("Bruttosumme\t1021,91\nErhaltene Anzahlungen\t-500,00\nZahlbetrag\t521,91"),
    ).toEqual({
      totalCents: 102191,
      dueCents: 52191,
      paidCents: 50000,
      currency: null,
    });
    expect(readInvoiceTotals("Totaal\t€ 121,00\nTe betalen\t€ 0,00")).toEqual({
      totalCents: 12100,
      dueCents: 0,
      paidCents: null,
      currency: "EUR",
    });
  });

  it("takes an amount due plus a payment as the total when no total is named", () => {
    expect(readInvoiceTotals("Reeds betaald\t€ 21,00\nNog te betalen\t€ 100,00").totalCents).toBe(12100);
  });

  it("does not pair a table's column header with the rows below it", () => {
    const text = "Nr\tOmschrijving\tPrijs\tTotaal(EUR)\n1A (Zie Bijlage 1A)\t8,00\t20,00\t160,00";
    expect(readInvoiceTotals(text).totalCents).toBeNull();
  });

  it("reads a summary table whose captions are a header row above rows of amounts", () => {
    const text = [
      "Warenwert\tNettobetrag\tMwSt-Betrag\tEndbetrag",
      "326,50\t321,40\t61,07\t382,47",
      "130,70\t127,59\t8,93\t136,52",
      "457,20\t448,99\t70,00\tEUR\t518,99",
    ].join("\n");
    expect(readInvoiceTotals(text).totalCents).toBe(51899);
  });

  it("reads nothing from text without labelled amounts", () => {
    expect(readInvoiceTotals("Geachte heer,\nHierbij de factuur.")).toEqual({
      totalCents: null,
      dueCents: null,
      paidCents: null,
      currency: null,
    });
  });

  it("does not take an amount due for the total of OCR text when a total was seen unread", () => {
    expect(readInvoiceTotals("Totaal te betalen\t€ 1.210,00", { strict: true }).totalCents).toBe(121000);
    expect(readInvoiceTotals("Net total: 496.00 €\nDue payable: 571.04 €", { strict: true }).totalCents).toBe(
      57104,
    );
    const text = "Totaal incl. btw\t53075€\nSolde à payer\t383,75 €";
    expect(readInvoiceTotals(text, { strict: true })).toEqual({
      totalCents: null,
      dueCents: 38375,
      paidCents: null,
      currency: null,
    });
    expect(readInvoiceTotals(text).totalCents).toBe(5307500);
  });
});
