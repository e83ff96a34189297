import { describe, expect, it } from "vitest";
import { findMoney } from "./money.js";

const cents = (line: string) => findMoney(line).map((m) => m.cents);

describe("findMoney", () => {
  it("reads amounts with and without thousands separators", () => {
    expect(cents("Totaal 1053,00")).toEqual([105300]);
    expect(cents("Totaal 1.053,00")).toEqual([105300]);
    expect(cents("Total 1,053.00")).toEqual([105300]);
    expect(cents("Total 1 053,00")).toEqual([105300]);
    expect(cents("Total CHF 1'053.00")).toEqual([105300]);
  });

  it("reads the currency before or after the amount", () => {
    const found = [
      "€ 12,50",
      "12,50 EUR",
      "$12.50",
      "USD 12.50",
      "£12.50",
      "12.50 GBP",
      "CHF 12.50",
      "Fr. 12.50",
    ].map((line) => findMoney(line).map((m) => [m.cents, m.currency]));
    expect(found).toEqual([
      [[1250, "EUR"]],
      [[1250, "EUR"]],
      [[1250, "USD"]],
      [[1250, "USD"]],
      [[1250, "GBP"]],
      [[1250, "GBP"]],
      [[1250, "CHF"]],
      [[1250, "CHF"]],
    ]);
  });

  it("reads whole amounts only with a currency, and Dutch ',-'", () => {
    expect(cents("EUR 1250 binnen 14 dagen")).toEqual([125000]);
    expect(cents("€ 1.250,-")).toEqual([125000]);
    expect(cents("Huisnummer 12, 14 dagen, 2026")).toEqual([]);
  });

  it("reads a minus before or after the amount", () => {
    expect(cents("Anzahlung -50,00")).toEqual([-5000]);
    expect(cents("Anzahlung 50,00-")).toEqual([-5000]);
  });

  it("skips percentages, dates, unit prices with four decimals, IBANs and times", () => {
    expect(cents("BTW 21,00%")).toEqual([]);
    expect(cents("Rabatt 10.00 %")).toEqual([]);
    expect(cents("Datum 19.01.2016")).toEqual([]);
    expect(cents("Lieferung bis zum 19.12. garantiert")).toEqual([]);
    expect(cents("Preis 41,1765 €")).toEqual([]);
    expect(cents("IBAN DE92 7607 0012 0750 0077 00")).toEqual([]);
  });

  it("gives each amount's place in the line", () => {
    expect(findMoney("Netto\t87,39 €").map((m) => [m.index, m.end, m.raw])).toEqual([[6, 13, "87,39 €"]]);
  });

  it("reads OCR text strictly: a space or apostrophe never groups digits, a lone digit before an amount may be its sign", () => {
    const strict = (line: string) => findMoney(line, { strict: true }).map((m) => m.cents);
    expect(strict("Totaal 1.053,00")).toEqual([105300]);
    expect(strict("Totaal 1053,00")).toEqual([105300]);
    expect(strict("Total € 1,053.00")).toEqual([105300]);
    // "€ 121,00" with its sign read as a 6: not 6.121,00, and not 121,00 either.
    expect(strict("Totaal 6 121,00")).toEqual([]);
    expect(cents("Totaal 6 121,00")).toEqual([612100]);
    expect(strict("Total CHF 1'053.00")).toEqual([]);
    expect(strict("BTW 21% € 21,00")).toEqual([2100]);
    // "530,75 €" with its comma lost: no amount, where the text layer's reading would take 53075 euros.
    expect(strict("Total TTC 53075€")).toEqual([]);
    expect(cents("Total TTC 53075€")).toEqual([5307500]);
    expect(strict("Totaal € 1.053,-")).toEqual([105300]);
  });
});
