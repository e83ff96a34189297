import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addYears,
  amsterdamDay,
  civilFromDay,
  dayFromCivil,
  daysInMonth,
  formatDay,
  isLeapYear,
  parseIsoDay,
  toDay,
} from "./calendar.js";

describe("calendar day numbers", () => {
  it("match Date.UTC for every day from 1900 to 2200", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2200, 0, 1) / 86_400_000 }),
        (day) => {
          const date = new Date(day * 86_400_000);
          expect(civilFromDay(day)).toEqual([
            date.getUTCFullYear(),
            date.getUTCMonth() + 1,
            date.getUTCDate(),
          ]);
          expect(dayFromCivil(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(day);
          expect(formatDay(day)).toBe(date.toISOString().slice(0, 10));
          expect(parseIsoDay(formatDay(day))).toBe(day);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("knows the Gregorian leap years", () => {
    expect([1900, 2000, 2023, 2024, 2100].map(isLeapYear)).toEqual([false, true, false, true, false]);
    expect([daysInMonth(2024, 2), daysInMonth(2025, 2), daysInMonth(2025, 4), daysInMonth(2025, 12)]).toEqual(
      [29, 28, 30, 31],
    );
  });

  it("parses only real YYYY-MM-DD dates", () => {
    expect(parseIsoDay("1970-01-01")).toBe(0);
    expect(parseIsoDay("2024-02-29")).toBe(19_782);
    for (const bad of [
      "2025-02-29",
      "2025-00-10",
      "2025-13-01",
      "2025-04-31",
      "2025-1-1",
      " 2025-01-01",
      "2025-01-01T00:00",
    ]) {
      expect(parseIsoDay(bad)).toBeUndefined();
    }
  });

  it("adds years, turning a missing 29 February into 1 March", () => {
    const day = (iso: string) => parseIsoDay(iso) as number;
    expect(formatDay(addYears(day("2023-03-01"), 1))).toBe("2024-03-01");
    expect(formatDay(addYears(day("2024-02-29"), 1))).toBe("2025-03-01");
    expect(formatDay(addYears(day("2024-02-29"), 4))).toBe("2028-02-29");
    expect(formatDay(addYears(day("2025-12-31"), 10))).toBe("2035-12-31");
  });

  it("reads an instant as the date in Amsterdam", () => {
    expect(formatDay(amsterdamDay(new Date("2026-03-28T23:00:00Z")))).toBe("2026-03-29"); // CET
    expect(formatDay(amsterdamDay(new Date("2026-03-29T21:59:00Z")))).toBe("2026-03-29"); // CEST
    expect(formatDay(amsterdamDay(new Date("2026-03-29T22:00:00Z")))).toBe("2026-03-30");
  });

  it("toDay refuses anything but a date string or a valid Date", () => {
    expect(toDay("2026-01-01", "x")).toBe(parseIsoDay("2026-01-01"));
    for (const bad of [undefined, null, 20260101, "2026-02-30", new Date(Number.NaN), {}]) {
      expect(() => toDay(bad, "someField")).toThrowError(
        expect.objectContaining({ code: "invalid_date", field: "someField" }),
      );
    }
  });
});
