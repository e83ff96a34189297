import { describe, expect, it } from "vitest";
import { assessHaalbaarheid } from "./haalbaarheid.js";

// Today Monday 23 November 2026. Defaults: 5 service days (Mon-Fri), so the bailiff can serve from
// Monday 30 November; ruim needs 5 spare service days.
const today = "2026-11-23";

describe("assessHaalbaarheid without a service date", () => {
  it.each([
    ["2026-12-01", "kan_niet"], // latest service 23 Nov, before the earliest (30 Nov)
    ["2026-12-07", "kan_niet"], // latest service Fri 27 Nov (29 Nov Sunday, 28 Nov Saturday not used)
    ["2026-12-08", "krap"], // latest service 30 Nov = earliest: no margin
    ["2026-12-14", "krap"], // latest Fri 4 Dec: 4 spare days
    ["2026-12-15", "ruim"], // latest Mon 7 Dec: 5 spare days
  ])("%s is %s", (roldatum, expected) => {
    expect(assessHaalbaarheid(roldatum, { today })).toBe(expected);
  });

  it("moves the edge with the thresholds", () => {
    expect(assessHaalbaarheid("2026-12-14", { today, ruimMarginDays: 4 })).toBe("ruim");
    expect(assessHaalbaarheid("2026-12-08", { today, ruimMarginDays: 0 })).toBe("ruim");
    expect(assessHaalbaarheid("2026-12-01", { today, serviceDays: 0 })).toBe("krap");
    expect(assessHaalbaarheid("2026-11-30", { today, serviceDays: 0 })).toBe("kan_niet");
  });

  it("counts Saturdays only when the bailiff serves on them", () => {
    expect(assessHaalbaarheid("2026-12-07", { today, saturdayService: true })).toBe("krap");
    expect(assessHaalbaarheid("2026-12-07", { today, saturdayService: false })).toBe("kan_niet");
  });

  it("does not count Ascension Day and the equated Friday as service days", () => {
    // From Fri 8 May 2026 the fifth service day is Tue 19 May (14 and 15 May are closed).
    expect(assessHaalbaarheid("2026-05-26", { today: "2026-05-08" })).toBe("kan_niet");
    expect(assessHaalbaarheid("2026-05-27", { today: "2026-05-08" })).toBe("krap");
  });
});

describe("assessHaalbaarheid on a day the court is closed", () => {
  it.each([
    ["2026-12-25", {}], // Christmas Day, a Friday: without the check it would be ruim
    ["2026-12-26", {}], // Saturday and Boxing Day
    ["2026-12-20", {}], // Sunday
    ["2027-05-07", {}], // equated day after Ascension 2027
    ["2026-12-22", { extraClosureDays: ["2026-12-22"] }], // a court's own closure day
    ["2026-12-25", { betekeningsdatum: "2026-11-24" }], // served long before: still no hearing
  ])("%s is kan_niet", (roldatum, extra) => {
    expect(assessHaalbaarheid(roldatum, { today, ...extra })).toBe("kan_niet");
  });

  it("judges the open day next to it as usual", () => {
    expect(assessHaalbaarheid("2026-12-24", { today })).toBe("ruim");
    expect(assessHaalbaarheid("2026-12-22", { today })).toBe("ruim");
  });
});

describe("assessHaalbaarheid with a service date", () => {
  it("needs service date + 8 days (art. 114 and 119 Rv)", () => {
    expect(assessHaalbaarheid("2026-12-01", { today, betekeningsdatum: "2026-11-24" })).toBe("kan_niet");
    expect(assessHaalbaarheid("2026-12-02", { today, betekeningsdatum: "2026-11-24" })).toBe("krap");
    expect(assessHaalbaarheid("2026-12-09", { today, betekeningsdatum: "2026-11-24" })).toBe("ruim");
  });

  it("is ruim once the summons has been served and the term is met", () => {
    // Served Tue 17 Nov: the earliest roldatum is Wed 25 Nov (both days open).
    expect(assessHaalbaarheid("2026-11-25", { today, betekeningsdatum: "2026-11-17" })).toBe("ruim");
    expect(assessHaalbaarheid("2026-11-24", { today, betekeningsdatum: "2026-11-17" })).toBe("kan_niet");
  });

  it("matches the RULES.md example: served Mon 2 Mar 2026, earliest Tue 10 Mar", () => {
    expect(assessHaalbaarheid("2026-03-09", { today: "2026-03-02", betekeningsdatum: "2026-03-02" })).toBe(
      "kan_niet",
    );
    expect(assessHaalbaarheid("2026-03-10", { today: "2026-03-02", betekeningsdatum: "2026-03-02" })).toBe(
      "ruim",
    );
  });
});

describe("assessHaalbaarheid options", () => {
  it("rejects malformed options with code invalid_option", () => {
    expect(() => assessHaalbaarheid("2026-12-01", { today: "23-11-2026" })).toThrow(
      expect.objectContaining({
        code: "invalid_option",
        message: 'today: expected a YYYY-MM-DD date, got "23-11-2026"',
      }),
    );
    expect(() => assessHaalbaarheid("2026-12-01", { today, serviceDays: -1 })).toThrow(
      expect.objectContaining({ code: "invalid_option" }),
    );
  });

  it("treats extra closure days as days without service", () => {
    expect(assessHaalbaarheid("2026-12-08", { today, extraClosureDays: ["2026-11-30"] })).toBe("kan_niet");
  });
});
