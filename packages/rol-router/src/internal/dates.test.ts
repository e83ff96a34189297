import { describe, expect, it } from "vitest";
import { amsterdamDay, dayFromParts, formatDay, parseIsoDay, weekdayOf, yearOf } from "./dates.js";

describe("calendar day numbers", () => {
  it("count days from 1970-01-01 and write them back as YYYY-MM-DD", () => {
    expect(dayFromParts(1970, 1, 1)).toBe(0);
    expect(parseIsoDay("2024-02-29")).toBe(19_782);
    expect(formatDay(19_782)).toBe("2024-02-29");
    expect(formatDay(-1)).toBe("1969-12-31");
    expect(dayFromParts(2026, 2, 29)).toBe(dayFromParts(2026, 3, 1));
    for (let day = -800; day < 60_000; day += 97) {
      expect(parseIsoDay(formatDay(day))).toBe(day);
      expect(yearOf(day)).toBe(new Date(day * 86_400_000).getUTCFullYear());
    }
  });

  it("parse only real YYYY-MM-DD dates", () => {
    for (const bad of [
      "2026-02-29",
      "2026-02-30",
      "2026-04-31",
      "2026-00-10",
      "2026-13-01",
      "2026-1-1",
      "2026-01-01T00:00",
    ]) {
      expect(parseIsoDay(bad)).toBeUndefined();
    }
  });

  it("know the weekday, 0 for Sunday", () => {
    // 2026-11-22 is a Sunday, 2026-11-28 a Saturday; 1969-12-28 was a Sunday.
    expect([22, 23, 24, 25, 26, 27, 28].map((d) => weekdayOf(dayFromParts(2026, 11, d)))).toEqual([
      0, 1, 2, 3, 4, 5, 6,
    ]);
    expect(weekdayOf(dayFromParts(1969, 12, 28))).toBe(0);
  });

  it("read an instant as the date in Amsterdam, across both daylight-saving changes", () => {
    const at = (iso: string) => formatDay(amsterdamDay(new Date(iso)));
    expect(at("2026-03-28T22:59:59Z")).toBe("2026-03-28"); // CET, UTC+1
    expect(at("2026-03-28T23:00:00Z")).toBe("2026-03-29");
    expect(at("2026-03-29T21:59:59Z")).toBe("2026-03-29"); // CEST, UTC+2
    expect(at("2026-03-29T22:00:00Z")).toBe("2026-03-30");
    expect(at("2026-10-24T21:59:59Z")).toBe("2026-10-24");
    expect(at("2026-10-24T22:00:00Z")).toBe("2026-10-25");
    expect(at("2026-10-25T22:59:59Z")).toBe("2026-10-25"); // CET again
    expect(at("2026-10-25T23:00:00Z")).toBe("2026-10-26");
  });
});
