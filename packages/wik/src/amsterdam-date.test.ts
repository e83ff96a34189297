import { describe, expect, it } from "vitest";
import { amsterdamDate } from "./amsterdam-date.js";

describe("amsterdamDate", () => {
  it("gives the Dutch calendar date, a day ahead of UTC late in the evening", () => {
    expect(amsterdamDate(new Date("2026-03-28T22:59:59Z"))).toBe("2026-03-28");
    // 23:00 UTC is midnight CET (winter time).
    expect(amsterdamDate(new Date("2026-03-28T23:00:00Z"))).toBe("2026-03-29");
    // In summer time (CEST, UTC+2) the day turns at 22:00 UTC.
    expect(amsterdamDate(new Date("2026-07-01T21:59:59Z"))).toBe("2026-07-01");
    expect(amsterdamDate(new Date("2026-07-01T22:00:00Z"))).toBe("2026-07-02");
    expect(amsterdamDate(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
  });

  it("turns the day at 22:00 UTC until summer time ends, and at 23:00 UTC after", () => {
    // 2026-10-25: 03:00 CEST becomes 02:00 CET.
    expect(amsterdamDate(new Date("2026-10-24T21:59:59Z"))).toBe("2026-10-24");
    expect(amsterdamDate(new Date("2026-10-24T22:00:00Z"))).toBe("2026-10-25");
    expect(amsterdamDate(new Date("2026-10-25T22:59:59Z"))).toBe("2026-10-25");
    expect(amsterdamDate(new Date("2026-10-25T23:00:00Z"))).toBe("2026-10-26");
  });

  it("refuses an invalid Date", () => {
    expect(() => amsterdamDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});
