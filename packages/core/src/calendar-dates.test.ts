import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addCalendarDays, isIsoDate } from "./calendar-dates.js";

describe("isIsoDate", () => {
  it("takes a real date written YYYY-MM-DD, leap days by the Gregorian rule", () => {
    for (const good of ["2026-11-25", "2024-02-29", "2000-02-29", "2025-12-31", "0050-03-01", "0000-01-01"]) {
      expect(isIsoDate(good)).toBe(true);
    }
  });

  it("refuses other forms, dates that do not exist and what is not a string", () => {
    for (const bad of [
      "2025-02-29",
      "1900-02-29",
      "2100-02-29",
      "2025-04-31",
      "2025-00-10",
      "2025-13-01",
      "2025-1-1",
      "25-11-2026",
      " 2025-01-01",
      "2025-01-01T00:00",
      "2025-W01-1",
      "20250101",
      "",
      20250101,
      null,
      undefined,
      new Date("2025-01-01"),
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });
});

describe("addCalendarDays", () => {
  it("counts calendar days across month and year ends and leap days", () => {
    expect(addCalendarDays("2026-01-31", 30)).toBe("2026-03-02");
    expect(addCalendarDays("2024-01-31", 30)).toBe("2024-03-01");
    expect(addCalendarDays("2026-12-18", 14)).toBe("2027-01-01");
    expect(addCalendarDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addCalendarDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addCalendarDays("2026-11-25", 0)).toBe("2026-11-25");
    expect(addCalendarDays("0050-12-31", 1)).toBe("0051-01-01");
  });

  it("is not moved by the daylight-saving changes in the Netherlands", () => {
    // Summer time starts on 2026-03-29 and ends on 2026-10-25 (Europe/Amsterdam).
    expect(addCalendarDays("2026-03-28", 1)).toBe("2026-03-29");
    expect(addCalendarDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addCalendarDays("2026-03-30", -2)).toBe("2026-03-28");
    expect(addCalendarDays("2026-10-24", 1)).toBe("2026-10-25");
    expect(addCalendarDays("2026-10-24", 2)).toBe("2026-10-26");
    expect(addCalendarDays("2026-10-26", -2)).toBe("2026-10-24");
    expect(addCalendarDays("2026-03-01", 240)).toBe("2026-10-27");
  });

  it("agrees with day arithmetic on UTC midnight for any date from 1900 to 2200", () => {
    const first = Date.UTC(1900, 0, 1) / 86_400_000;
    const last = Date.UTC(2200, 0, 1) / 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: first, max: last }),
        fc.integer({ min: -1_000, max: 1_000 }),
        (day, days) => {
          const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
          expect(addCalendarDays(iso(day), days)).toBe(iso(day + days));
        },
      ),
      { numRuns: 500 },
    );
  });
});
