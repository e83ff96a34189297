import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatEuro,
  formatMoment,
  formatTime,
  parseDutchDate,
  parseEuro,
} from "./dutch-format.js";

describe("Dutch notation", () => {
  it("writes amounts and dates the Dutch way", () => {
    expect(formatEuro(123456)).toBe("€ 1.234,56");
    expect(formatEuro(5)).toBe("€ 0,05");
    expect(formatEuro(100000000)).toBe("€ 1.000.000,00");
    // An overpaid balance, as the letter and the CLI write it.
    expect(formatEuro(-500)).toBe("-€ 5,00");
    expect(formatDate("2026-11-25")).toBe("25-11-2026");
    expect(formatDate(new Date("2026-11-25T23:30:00Z"))).toBe("26-11-2026");
    expect(formatTime(new Date("2026-11-25T20:15:00Z"))).toBe("21:15");
    expect(formatMoment("2026-07-01T08:05:00.000Z")).toBe("01-07-2026 10:05");
  });

  it("reads typed amounts and dates, and refuses what is not one", () => {
    expect(parseEuro("1.234,56")).toBe(123456);
    expect(parseEuro("€ 12")).toBe(1200);
    expect(parseEuro("12.5")).toBe(1250);
    expect(parseEuro("0,1")).toBe(10);
    expect(parseEuro("twaalf")).toBeUndefined();
    expect(parseEuro("1,234")).toBeUndefined();
    expect(parseEuro("")).toBeUndefined();
    expect(parseDutchDate("25-11-2026")).toBe("2026-11-25");
    expect(parseDutchDate("2026-11-25")).toBe("2026-11-25");
    expect(parseDutchDate("31-02-2026")).toBeUndefined();
    expect(parseDutchDate("25/11/2026")).toBeUndefined();
  });
});
