import { describe, expect, it } from "vitest";
import { WikInterestSchema } from "./calculation-schema.js";
import { calculateStatutoryInterest, type StatutoryInterestInput } from "./statutory-interest.js";

const interest = (input: StatutoryInterestInput) => calculateStatutoryInterest(input);
/** [year, rate_percent, days, principal_cents, amount_cents] per period, for compact assertions. */
const rows = (input: StatutoryInterestInput) =>
  interest(input).periods.map((p) => [p.year, p.rate_percent, p.days, p.principal_cents, p.amount_cents]);

describe("calculateStatutoryInterest: days and rates", () => {
  it("counts the days after the due date up to and including the end date (art. 6:119a lid 1 BW)", () => {
    // go-figure.nl worked example (RULES 2.5): 1,000 x 8% x 11 / 365 = 2.41
    const result = interest({
      principalCents: 100_000,
      debtorType: "business",
      dueDate: "2020-01-01",
      endDate: "2020-01-12",
    });
    expect(result).toStrictEqual({
      amount_cents: 241,
      rate_percent: 8,
      days: 11,
      type: "wettelijke_handelsrente",
      due_date: "2020-01-01",
      end_date: "2020-01-12",
      compounding: "yearly",
      day_count: "actual/365",
      periods: [
        {
          from: "2020-01-02",
          to: "2020-01-12",
          days: 11,
          year: 1,
          rate_percent: 8,
          rate_from: "2016-07-01",
          // The 8% row of 2016-07-01 rests on secondary sources only (table: confidence medium).
          rate_confidence: "medium",
          principal_cents: 100_000,
          amount_cents: 241,
          beyond_rate_table: false,
        },
      ],
      rate_table_last_known_date: "2026-12-31",
      beyond_rate_table: false,
    });
    expect(WikInterestSchema.parse(result)).toStrictEqual(result);
  });

  it("splits the period at every rate change and gives a boundary day the new rate (art. 6:120 BW)", () => {
    const result = interest({ principalCents: 100_000, dueDate: "2022-12-15", endDate: "2024-01-31" });
    expect(result.periods.map((p) => [p.from, p.to, p.rate_percent])).toEqual([
      ["2022-12-16", "2022-12-31", 2],
      ["2023-01-01", "2023-06-30", 4],
      ["2023-07-01", "2023-12-15", 6],
      ["2023-12-16", "2023-12-31", 6],
      ["2024-01-01", "2024-01-31", 7],
    ]);
    expect(rows({ principalCents: 100_000, dueDate: "2022-12-15", endDate: "2024-01-31" })).toEqual([
      [1, 2, 16, 100_000, 88],
      [1, 4, 181, 100_000, 1984],
      [1, 6, 168, 100_000, 2762],
      [2, 6, 16, 104_834, 276],
      [2, 7, 31, 104_834, 623],
    ]);
    expect(result.amount_cents).toBe(5733);
    expect(result.days).toBe(412);
    expect(result.rate_percent).toBe(7); // the rate of the last day counted
    // one day, 1 July 2023: the day the 6% rate took effect earns 6%, not 4%
    const boundary = interest({ principalCents: 100_000, dueDate: "2023-06-30", endDate: "2023-07-01" });
    expect(boundary.periods).toHaveLength(1);
    expect(boundary.rate_percent).toBe(6);
    expect(boundary.amount_cents).toBe(16); // 1,000 x 6% / 365 = 0.164
  });

  it("splits at the 16 March 2013 handelsrente change (margin 7 -> 8 points)", () => {
    expect(
      rows({
        principalCents: 1_000_000,
        debtorType: "business",
        dueDate: "2013-01-31",
        endDate: "2013-07-31",
      }),
    ).toEqual([
      [1, 7.75, 43, 1_000_000, 9130],
      [1, 8.75, 107, 1_000_000, 25651],
      [1, 8.5, 31, 1_000_000, 7219],
    ]);
  });

  it("does not split where the table repeats the same rate (handelsrente 10.15% on 2025-07-01 and 2026-01-01)", () => {
    const result = interest({
      principalCents: 250_000,
      debtorType: "business",
      dueDate: "2025-11-30",
      endDate: "2026-01-31",
    });
    expect(result.periods).toHaveLength(1);
    expect(result.periods[0]).toMatchObject({
      from: "2025-12-01",
      to: "2026-01-31",
      days: 62,
      rate_from: "2025-07-01",
    });
    expect(result.amount_cents).toBe(4310); // 2,500 x 10.15% x 62 / 365 = 43.10
  });
});

describe("calculateStatutoryInterest: yearly compounding (art. 6:119 lid 2 BW)", () => {
  it("adds each full year's interest to the principal, over several years", () => {
    // 2% throughout (2015-01-01 .. 2022-12-31); years of 366, 365, 365, 365, 366 days
    const input = { principalCents: 100_000, dueDate: "2015-06-30", endDate: "2020-06-30" };
    expect(rows(input)).toEqual([
      [1, 2, 366, 100_000, 2005], // 2,005.48
      [2, 2, 365, 102_005, 2040], // 2,040.10
      [3, 2, 365, 104_045, 2081], // 2,080.90
      [4, 2, 365, 106_126, 2123], // 2,122.52
      [5, 2, 366, 108_249, 2171], // 2,170.89
    ]);
    expect(interest(input).amount_cents).toBe(10_420);
    expect(interest(input).periods.map((p) => p.from)).toEqual([
      "2015-07-01",
      "2016-07-01",
      "2017-07-01",
      "2018-07-01",
      "2019-07-01",
    ]);
  });

  it("capitalises a year's interest only once that year has ended", () => {
    // one day short of the first (366-day) year: 1,000 x 2% x 365 / 365 = 20.00, nothing added
    expect(rows({ principalCents: 100_000, dueDate: "2015-06-30", endDate: "2016-06-29" })).toEqual([
      [1, 2, 365, 100_000, 2000],
    ]);
    // one day into the second year: the first year's 20.05 is now part of the base
    expect(rows({ principalCents: 100_000, dueDate: "2015-06-30", endDate: "2016-07-01" })).toEqual([
      [1, 2, 366, 100_000, 2005],
      [2, 2, 1, 102_005, 6], // 1,020.05 x 2% / 365 = 0.0559
    ]);
  });

  it("simple interest by agreement keeps the base constant", () => {
    const result = interest({
      principalCents: 100_000,
      dueDate: "2015-06-30",
      endDate: "2020-06-30",
      compounding: "none",
    });
    expect(result.compounding).toBe("none");
    expect(result.periods.map((p) => p.principal_cents)).toEqual([
      100_000, 100_000, 100_000, 100_000, 100_000,
    ]);
    expect(result.amount_cents).toBe(10_010);
  });

  it("ten years across many rate changes", () => {
    const input = { principalCents: 123_456, dueDate: "2016-11-21", endDate: "2026-11-21" };
    expect(rows(input)).toEqual([
      [1, 2, 365, 123_456, 2469],
      [2, 2, 365, 125_925, 2519],
      [3, 2, 365, 128_444, 2569],
      [4, 2, 366, 131_013, 2627],
      [5, 2, 365, 133_640, 2673],
      [6, 2, 365, 136_313, 2726],
      [7, 2, 40, 139_039, 305],
      [7, 4, 181, 139_039, 2758],
      [7, 6, 144, 139_039, 3291],
      [8, 6, 40, 145_393, 956],
      [8, 7, 326, 145_393, 9090],
      [9, 7, 40, 155_439, 1192],
      [9, 6, 325, 155_439, 8304],
      [10, 6, 40, 164_935, 1085],
      // 4% from 2026-01-01, confirmed again for 2026-07-01: one rate, so one period.
      [10, 4, 325, 164_935, 5874],
    ]);
    expect(interest(input).amount_cents).toBe(48_438);
    expect(interest(input).days).toBe(3652);
  });

  it("computes very large principals exactly (beyond 2^53 intermediate products)", () => {
    const result = interest({
      principalCents: 100_000_000_000,
      debtorType: "business",
      dueDate: "2016-11-21",
      endDate: "2026-11-21",
    });
    expect(result.amount_cents).toBe(141_625_786_307);
    expect(result.periods.map((p) => p.amount_cents)).toEqual([
      8_000_000_000, 8_640_000_000, 9_331_200_000, 10_105_306_126, 10_886_120_490, 11_757_010_129,
      1_391_514_624, 8_264_292_319, 7_514_178_967, 2_313_069_010, 10_962_983_330, 8_500_528_613,
      // The last: 10.40% from 2026-07-01.
      2_653_601_090, 10_929_316_406, 7_915_312_964, 13_469_005_487, 8_992_346_752,
    ]);
  });
});

describe("calculateStatutoryInterest: leap years", () => {
  it("counts 29 February as a day and divides by 365 by default", () => {
    // EUR 365,000 at 7% earns exactly EUR 70 a day on actual/365
    const result = interest({ principalCents: 36_500_000, dueDate: "2024-02-28", endDate: "2024-03-01" });
    expect(result.days).toBe(2);
    expect(result.amount_cents).toBe(14_000);
  });

  it("divides by 366 in a compounding year that contains 29 February with actual/compounding-year", () => {
    const result = interest({
      principalCents: 36_500_000,
      dueDate: "2024-02-28",
      endDate: "2024-03-01",
      dayCount: "actual/compounding-year",
    });
    expect(result.day_count).toBe("actual/compounding-year");
    expect(result.amount_cents).toBe(13_962); // 365,000 x 7% x 2 / 366 = 139.617
    const fiveYears = interest({
      principalCents: 100_000,
      dueDate: "2015-06-30",
      endDate: "2020-06-30",
      dayCount: "actual/compounding-year",
    });
    expect(fiveYears.amount_cents).toBe(10_408);
  });

  it("a year that starts on 1 March before a leap day runs to 29 February", () => {
    // due 2023-02-28: interest from 2023-03-01; the first year is 2023-03-01 .. 2024-02-29
    const result = interest({ principalCents: 100_000, dueDate: "2023-02-28", endDate: "2024-03-31" });
    expect(result.periods.map((p) => [p.year, p.from, p.to, p.amount_cents])).toEqual([
      [1, "2023-03-01", "2023-06-30", 1337],
      [1, "2023-07-01", "2023-12-31", 3025],
      [1, "2024-01-01", "2024-02-29", 1151],
      [2, "2024-03-01", "2024-03-31", 627],
    ]);
    expect(result.periods[3]?.principal_cents).toBe(105_513);
  });

  it("a due date of 29 February starts the years on 1 March", () => {
    const result = interest({ principalCents: 100_000, dueDate: "2024-02-29", endDate: "2025-03-01" });
    expect(result.periods.map((p) => [p.year, p.from, p.to, p.days, p.amount_cents])).toEqual([
      [1, "2024-03-01", "2024-12-31", 306, 5868],
      [1, "2025-01-01", "2025-02-28", 59, 970],
      [2, "2025-03-01", "2025-03-01", 1, 18],
    ]);
    expect(result.amount_cents).toBe(6856);
  });

  it("a year that starts on 29 February ends on 28 February", () => {
    // due 2024-02-28: interest from 2024-02-29; the first year is 2024-02-29 .. 2025-02-28
    const result = interest({ principalCents: 100_000, dueDate: "2024-02-28", endDate: "2025-03-02" });
    expect(result.periods.filter((p) => p.year === 2).map((p) => p.from)).toEqual(["2025-03-01"]);
    expect(result.periods.filter((p) => p.year === 1).at(-1)?.to).toBe("2025-02-28");
  });
});

describe("calculateStatutoryInterest: no interest", () => {
  it("a due date in the future gives zero interest and the rate now in force", () => {
    const result = interest({ principalCents: 100_000, dueDate: "2026-12-01", endDate: "2026-11-21" });
    expect(result).toMatchObject({
      amount_cents: 0,
      days: 0,
      rate_percent: 4,
      due_date: "2026-12-01",
      end_date: "2026-11-21",
      periods: [],
      beyond_rate_table: false,
    });
  });

  it("a due date equal to the end date gives zero interest", () => {
    const result = interest({ principalCents: 100_000, dueDate: "2025-03-01", endDate: "2025-03-01" });
    expect(result.amount_cents).toBe(0);
    expect(result.days).toBe(0);
  });

  it("no due date gives zero interest", () => {
    for (const dueDate of [undefined, null]) {
      const result = interest({
        principalCents: 100_000,
        debtorType: "business",
        dueDate,
        endDate: "2024-07-01",
      });
      expect(result).toMatchObject({
        amount_cents: 0,
        days: 0,
        due_date: null,
        rate_percent: 12.25,
        periods: [],
      });
    }
  });

  it("a tiny principal can give zero cents over a few days", () => {
    expect(interest({ principalCents: 1, dueDate: "2024-01-01", endDate: "2024-01-10" }).amount_cents).toBe(
      0,
    );
  });
});

describe("calculateStatutoryInterest: the edges of the rate table", () => {
  it("flags days after the last known date and splits there", () => {
    const result = interest({
      principalCents: 100_000,
      debtorType: "business",
      dueDate: "2026-11-30",
      endDate: "2027-02-15",
    });
    expect(result.beyond_rate_table).toBe(true);
    expect(result.periods.map((p) => [p.from, p.to, p.rate_percent, p.beyond_rate_table])).toEqual([
      ["2026-12-01", "2026-12-31", 10.4, false],
      ["2027-01-01", "2027-02-15", 10.4, true],
    ]);
  });

  it("is not flagged up to and including the last known date", () => {
    const result = interest({ principalCents: 100_000, dueDate: "2026-01-01", endDate: "2026-12-31" });
    expect(result.beyond_rate_table).toBe(false);
    expect(result.periods.map((p) => [p.from, p.to, p.rate_percent])).toEqual([
      ["2026-01-02", "2026-12-31", 4],
    ]);
  });

  it("refuses days past the table with beyond_rate_table when asked to", () => {
    expect(() =>
      interest({
        principalCents: 100,
        dueDate: "2026-12-31",
        endDate: "2027-01-01",
        beyondRateTable: "throw",
      }),
    ).toThrowError(expect.objectContaining({ code: "beyond_rate_table", field: "dueDate" }));
    // zero interest past the table is not refused: nothing was computed with an assumed rate
    expect(
      interest({
        principalCents: 100,
        dueDate: "2027-01-01",
        endDate: "2026-12-01",
        beyondRateTable: "throw",
      }).amount_cents,
    ).toBe(0);
  });

  it("refuses interest before the first row with date_before_rate_table", () => {
    expect(
      interest({ principalCents: 100_000, dueDate: "2001-12-31", endDate: "2002-01-01" }).amount_cents,
    ).toBe(
      19, // 1,000 x 7% / 365
    );
    expect(() =>
      interest({ principalCents: 100_000, dueDate: "2001-12-30", endDate: "2002-01-01" }),
    ).toThrowError(expect.objectContaining({ code: "date_before_rate_table", field: "dueDate" }));
    // the handelsrente regime starts on 8 August 2002
    expect(
      interest({
        principalCents: 100_000,
        debtorType: "business",
        dueDate: "2002-08-07",
        endDate: "2002-08-08",
      }).rate_percent,
    ).toBe(7);
    expect(() =>
      interest({
        principalCents: 100_000,
        debtorType: "business",
        dueDate: "2002-08-06",
        endDate: "2002-08-08",
      }),
    ).toThrowError(expect.objectContaining({ code: "date_before_rate_table" }));
  });

  it("gives rate 0 without interest before the table", () => {
    expect(interest({ principalCents: 100, endDate: "1999-01-01" }).rate_percent).toBe(0);
  });
});

describe("calculateStatutoryInterest: input", () => {
  it("reads a Date as its calendar date in the Netherlands", () => {
    // 23:30 UTC on 20 November is 00:30 on 21 November in Amsterdam (CET, UTC+1)
    const winter = interest({
      principalCents: 100,
      dueDate: "2026-11-01",
      endDate: new Date("2026-11-20T23:30:00Z"),
    });
    expect(winter.end_date).toBe("2026-11-21");
    // 22:30 UTC on 30 June is 00:30 on 1 July in Amsterdam (CEST, UTC+2)
    const summer = interest({
      principalCents: 100,
      dueDate: "2026-06-01",
      endDate: new Date("2026-06-30T22:30:00Z"),
    });
    expect(summer.end_date).toBe("2026-07-01");
  });

  it("defaults the end date to today", () => {
    const result = interest({ principalCents: 100, dueDate: "2020-01-01" });
    expect(result.end_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(result.days).toBeGreaterThan(0);
  });

  it.each([
    [{ principalCents: 0 }, "invalid_amount", "principalCents"],
    [{ principalCents: 10.5 }, "invalid_amount", "principalCents"],
    [{ principalCents: 100, debtorType: "company" }, "invalid_debtor_type", "debtorType"],
    [{ principalCents: 100, dueDate: "2025-02-29" }, "invalid_date", "dueDate"],
    [{ principalCents: 100, dueDate: "2025-1-5" }, "invalid_date", "dueDate"],
    [{ principalCents: 100, dueDate: "20250105" }, "invalid_date", "dueDate"],
    [{ principalCents: 100, dueDate: 20250105 }, "invalid_date", "dueDate"],
    [{ principalCents: 100, endDate: "2025-13-01" }, "invalid_date", "endDate"],
    [{ principalCents: 100, endDate: new Date("nope") }, "invalid_date", "endDate"],
    [{ principalCents: 100, endDate: "2025-01-01", dayCount: "30/360" }, "invalid_option", "dayCount"],
    [{ principalCents: 100, endDate: "2025-01-01", compounding: "monthly" }, "invalid_option", "compounding"],
    [
      { principalCents: 100, endDate: "2025-01-01", beyondRateTable: "ignore" },
      "invalid_option",
      "beyondRateTable",
    ],
  ])("refuses %j with %s", (input, code, field) => {
    expect(() => interest(input as unknown as StatutoryInterestInput)).toThrowError(
      expect.objectContaining({ code, field }),
    );
  });

  it("refuses a non-object input with invalid_request", () => {
    expect(() => interest(null as unknown as StatutoryInterestInput)).toThrowError(
      expect.objectContaining({ code: "invalid_request" }),
    );
  });

  it("refuses a result that does not fit in a safe integer with result_out_of_range", () => {
    expect(() =>
      interest({ principalCents: Number.MAX_SAFE_INTEGER, dueDate: "2003-01-01", endDate: "2026-01-01" }),
    ).toThrowError(expect.objectContaining({ code: "result_out_of_range", field: "principalCents" }));
  });
});
