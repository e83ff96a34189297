import { describe, expect, it } from "vitest";
import { closureDays, easterSunday, isCourtClosed } from "./court-calendar.js";

const dates = (year: number) => closureDays(year).map((d) => d.datum);

describe("closureDays", () => {
  it("2022: ATW days, Good Friday and the equated 27 May", () => {
    expect(dates(2022)).toEqual([
      "2022-01-01",
      "2022-04-15",
      "2022-04-18",
      "2022-04-27",
      "2022-05-05",
      "2022-05-26",
      "2022-05-27",
      "2022-06-06",
      "2022-12-25",
      "2022-12-26",
    ]);
  });

  it("2024: equated 10 May and 27 December", () => {
    expect(dates(2024)).toEqual([
      "2024-01-01",
      "2024-03-29",
      "2024-04-01",
      "2024-04-27",
      "2024-05-05",
      "2024-05-09",
      "2024-05-10",
      "2024-05-20",
      "2024-12-25",
      "2024-12-26",
      "2024-12-27",
    ]);
  });

  it("2025: Koningsdag moves to Saturday 26 April because 27 April is a Sunday", () => {
    expect(dates(2025)).toEqual([
      "2025-01-01",
      "2025-04-18",
      "2025-04-21",
      "2025-04-26",
      "2025-05-05",
      "2025-05-29",
      "2025-05-30",
      "2025-06-09",
      "2025-12-25",
      "2025-12-26",
    ]);
  });

  it("2026: equated 2 January and 15 May (RULES.md § 3.1)", () => {
    expect(dates(2026)).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-04-03",
      "2026-04-06",
      "2026-04-27",
      "2026-05-05",
      "2026-05-14",
      "2026-05-15",
      "2026-05-25",
      "2026-12-25",
      "2026-12-26",
    ]);
  });

  it("2027 and 2028", () => {
    expect(dates(2027)).toEqual([
      "2027-01-01",
      "2027-03-26",
      "2027-03-29",
      "2027-04-27",
      "2027-05-05",
      "2027-05-06",
      "2027-05-07",
      "2027-05-17",
      "2027-12-25",
      "2027-12-26",
    ]);
    expect(dates(2028)).toEqual([
      "2028-01-01",
      "2028-04-14",
      "2028-04-17",
      "2028-04-27",
      "2028-04-28",
      "2028-05-05",
      "2028-05-25",
      "2028-05-26",
      "2028-06-05",
      "2028-12-25",
      "2028-12-26",
    ]);
  });

  it("names the rule behind each day", () => {
    expect(closureDays(2026)[1]).toEqual({
      datum: "2026-01-02",
      naam: "Gelijkgestelde dag",
      grondslag:
        "Algemene termijnenwet art. 3 lid 3; Besluit gelijkstelling van 2 januari 2026, 15 mei 2026, 7 mei 2027, 28 april 2028 en 26 mei 2028",
    });
    expect(closureDays(2026)[2]).toEqual({
      datum: "2026-04-03",
      naam: "Goede Vrijdag",
      grondslag: "Algemene termijnenwet art. 3 lid 2",
    });
  });
});

describe("easterSunday", () => {
  it.each([
    [1818, "1818-03-22"],
    [1943, "1943-04-25"],
    [2000, "2000-04-23"],
    [2008, "2008-03-23"],
    [2019, "2019-04-21"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2038, "2038-04-25"],
    [2285, "2285-03-22"],
  ])("%i → %s", (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });
});

describe("isCourtClosed", () => {
  it("closes weekends and closure days only", () => {
    expect(isCourtClosed("2026-05-14")).toBe(true);
    expect(isCourtClosed("2026-05-15")).toBe(true);
    expect(isCourtClosed("2026-05-16")).toBe(true);
    expect(isCourtClosed("2026-05-12")).toBe(false);
    expect(isCourtClosed("2026-12-24")).toBe(false);
  });

  it("refuses a malformed date with code invalid_option", () => {
    expect(() => isCourtClosed("2026-02-30")).toThrow(expect.objectContaining({ code: "invalid_option" }));
  });
});
