import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findAmounts, formatEuro, parseAmountCents } from "./amounts.js";

describe("parseAmountCents", () => {
  it.each([
    ["€ 1.250,00", 125000],
    ["1,250.00", 125000],
    ["EUR 1250", 125000],
    ["1250,-", 125000],
    ["1.250,-", 125000],
    ["€1.250", 125000],
    ["1.250", 125000],
    ["1,250", 125000],
    ["12,5", 1250],
    ["1.25", 125],
    ["0,29", 29],
    ["1 250,00", 125000],
    ["1\u00a0250,00 €", 125000],
    ["1.250.000,99", 125000099],
    ["1,250,000.99", 125000099],
    ["1'250.50", 125050],
    ["-12,50", -1250],
    ["€ 40", 4000],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseAmountCents(text)).toBe(cents);
  });

  it.each(["", "abc", "12.345.67", "1,2,3", "1.250,00.00", "1,25,000", "12,", "€", "1.2345"])(
    "refuses %j",
    (text) => {
      expect(parseAmountCents(text)).toBeNull();
    },
  );

  it("reads back every amount written the Dutch or the English way", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (cents) => {
        const dutch = formatEuro(cents);
        const english = `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`;
        return parseAmountCents(dutch) === cents && parseAmountCents(english) === cents;
      }),
    );
  });
});

describe("findAmounts", () => {
  it("finds amounts with currency or decimals and skips rates, dates and bare numbers", () => {
    expect(findAmounts("Subtotaal € 100,00 BTW 21% € 21,00").map((a) => a.cents)).toEqual([10000, 2100]);
    expect(findAmounts("Factuurdatum: 15-01-2026")).toEqual([]);
    expect(findAmounts("binnen 14 dagen, Teststraat 10, 9999 ZZ")).toEqual([]);
    expect(findAmounts("Total due: 1,250.00")).toEqual([{ cents: 125000, index: 11, raw: "1,250.00" }]);
    expect(findAmounts("Te betalen EUR 1250").map((a) => a.cents)).toEqual([125000]);
    expect(findAmounts("Bedrag 1 250,00 euro").map((a) => a.raw)).toEqual(["1 250,00 euro"]);
  });
});

describe("formatEuro", () => {
  it("writes cents the Dutch way", () => {
    expect(formatEuro(125000)).toBe("€ 1.250,00");
    expect(formatEuro(5)).toBe("€ 0,05");
    expect(formatEuro(-50)).toBe("-€ 0,50");
    expect(formatEuro(100_000_000_000)).toBe("€ 1.000.000.000,00");
  });
});
