import { describe, expect, it } from "vitest";
import {
  formatDutchDate,
  formatDutchLongDate,
  formatDutchMoment,
  formatDutchTime,
  parseDutchDate,
} from "./dutch-dates.js";

describe("Dutch dates", () => {
  it("writes a calendar date as DD-MM-YYYY, and an instant as its date in Amsterdam", () => {
    expect(formatDutchDate("2026-11-25")).toBe("25-11-2026");
    expect(formatDutchDate("0050-03-01")).toBe("01-03-0050");
    // 23:30 UTC in winter (CET, UTC+1) is already the next day in Amsterdam.
    expect(formatDutchDate(new Date("2026-11-25T23:30:00Z"))).toBe("26-11-2026");
    expect(formatDutchDate(new Date("2026-11-25T22:59:59Z"))).toBe("25-11-2026");
    // In summer time (CEST, UTC+2) the day turns at 22:00 UTC.
    expect(formatDutchDate(new Date("2026-07-01T21:59:59Z"))).toBe("01-07-2026");
    expect(formatDutchDate("2026-07-01T22:00:00Z")).toBe("02-07-2026");
  });

  it("writes the time of day in Amsterdam on the 24-hour clock, across both daylight-saving changes", () => {
    expect(formatDutchTime(new Date("2026-11-25T20:15:00Z"))).toBe("21:15");
    expect(formatDutchTime("2026-11-25T23:05:00Z")).toBe("00:05");
    // 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(formatDutchTime(new Date("2026-03-29T00:59:00Z"))).toBe("01:59");
    expect(formatDutchTime(new Date("2026-03-29T01:00:00Z"))).toBe("03:00");
    // 2026-10-25: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 happens twice.
    expect(formatDutchTime(new Date("2026-10-25T00:30:00Z"))).toBe("02:30");
    expect(formatDutchTime(new Date("2026-10-25T01:30:00Z"))).toBe("02:30");
    expect(formatDutchTime(new Date("2026-10-25T02:00:00Z"))).toBe("03:00");
  });

  it("writes an instant as DD-MM-YYYY HH:MM in Amsterdam", () => {
    expect(formatDutchMoment("2026-11-25T20:15:00.000Z")).toBe("25-11-2026 21:15");
    expect(formatDutchMoment("2026-07-01T08:05:00.000Z")).toBe("01-07-2026 10:05");
    expect(formatDutchMoment(new Date("2026-12-31T23:30:00Z"))).toBe("01-01-2027 00:30");
    expect(formatDutchMoment(new Date("2026-03-28T23:00:00Z"))).toBe("29-03-2026 00:00");
  });

  it("writes a date out with the Dutch month name, as a letter dates itself", () => {
    expect(formatDutchLongDate("2026-10-01")).toBe("1 oktober 2026");
    expect(formatDutchLongDate("2024-02-29")).toBe("29 februari 2024");
    expect(formatDutchLongDate("2026-03-29")).toBe("29 maart 2026");
    expect(formatDutchLongDate("2026-10-25")).toBe("25 oktober 2026");
    expect(
      Array.from({ length: 12 }, (_, m) => formatDutchLongDate(`2026-${String(m + 1).padStart(2, "0")}-15`)),
    ).toEqual([
      "15 januari 2026",
      "15 februari 2026",
      "15 maart 2026",
      "15 april 2026",
      "15 mei 2026",
      "15 juni 2026",
      "15 juli 2026",
      "15 augustus 2026",
      "15 september 2026",
      "15 oktober 2026",
      "15 november 2026",
      "15 december 2026",
    ]);
  });

  it("refuses to write what is not a date or an instant", () => {
    expect(() => formatDutchLongDate("2026-02-30")).toThrow(RangeError);
    expect(() => formatDutchDate("gisteren")).toThrow(RangeError);
    expect(() => formatDutchTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatDutchMoment("2026-13-01T00:00:00Z")).toThrow(RangeError);
  });

  it("reads a typed date in Dutch or ISO notation, and refuses what is not a real date", () => {
    expect(parseDutchDate("25-11-2026")).toBe("2026-11-25");
    expect(parseDutchDate(" 29-02-2024 ")).toBe("2024-02-29");
    expect(parseDutchDate("2026-11-25")).toBe("2026-11-25");
    expect(parseDutchDate("31-02-2026")).toBeUndefined();
    expect(parseDutchDate("29-02-2025")).toBeUndefined();
    expect(parseDutchDate("25/11/2026")).toBeUndefined();
    expect(parseDutchDate("5-11-2026")).toBeUndefined();
    expect(parseDutchDate("")).toBeUndefined();
  });
});
