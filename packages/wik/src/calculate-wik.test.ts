import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateWik } from "./calculate-wik.js";
import { WikCalculationSchema } from "./calculation-schema.js";
import { type WikRequestInput, WikRequestSchema } from "./request-schema.js";

const TODAY = { today: "2026-11-21" };

describe("calculateWik", () => {
  it("returns the full WikCalculation for a business claim with VAT and interest", () => {
    const result = calculateWik(
      { amount_cents: 125_000, debtor_type: "business", due_date: "2023-05-10", include_vat: true },
      TODAY,
    );
    const { periods, ...interest } = result.interest;
    expect({ ...result, interest }).toStrictEqual({
      object: "wik_calculation",
      debtor_type: "business",
      principal_amount_cents: 125_000,
      collection_costs_cents: 18_750, // 15% of 1,250
      collection_costs_vat_cents: 3_938, // 21% of 187.50 = 39.375
      interest: {
        amount_cents: 57_314,
        rate_percent: 10.4,
        days: 1291,
        type: "wettelijke_handelsrente",
        due_date: "2023-05-10",
        end_date: "2026-11-21",
        compounding: "yearly",
        day_count: "actual/365",
        rate_table_last_known_date: "2026-12-31",
        beyond_rate_table: false,
      },
      total_amount_cents: 125_000 + 18_750 + 3_938 + 57_314,
      basis:
        'Indicative calculation, not legal advice. Collection costs: scale of art. 2 Besluit vergoeding voor buitengerechtelijke incassokosten over the principal (minimum EUR 40, maximum EUR 6,775), plus 21% VAT on the costs. Interest: wettelijke handelsrente (art. 6:119a BW) from the day after 2023-05-10 up to and including 2026-11-21, compounded yearly, day count actual/365, rounded per period to cents. Not every rate used is confirmed by an official publication: for 2026-07-01 to 2026-11-21 the rate rests on secondary sources only, and for 2023-07-01 to 2023-12-31 the sources disagree on the rate (periods with rate_confidence "medium"); check those rates before relying on the interest. Whether the costs may lawfully be charged is not checked (a consumer must first receive a 14-day letter, art. 6:96 lid 6 BW).',
    });
    expect(
      periods.map((p) => [
        p.year,
        p.from,
        p.to,
        p.rate_percent,
        p.principal_cents,
        p.amount_cents,
        p.rate_confidence,
      ]),
    ).toEqual([
      [1, "2023-05-11", "2023-06-30", 10.5, 125_000, 1834, "high"],
      // The table records a conflict between sources for 2023-07-01.
      [1, "2023-07-01", "2023-12-31", 12, 125_000, 7562, "medium"],
      [1, "2024-01-01", "2024-05-10", 12.5, 125_000, 5608, "high"],
      [2, "2024-05-11", "2024-06-30", 12.5, 140_004, 2445, "high"],
      [2, "2024-07-01", "2024-12-31", 12.25, 140_004, 8646, "high"],
      [2, "2025-01-01", "2025-05-10", 11.15, 140_004, 5560, "high"],
      [3, "2025-05-11", "2025-06-30", 11.15, 156_655, 2441, "high"],
      // 10.15% from 2025-07-01, again from 2026-01-01: confirmed by the ECB rate (art. 6:120 lid 2).
      [3, "2025-07-01", "2026-05-10", 10.15, 156_655, 13_679, "high"],
      [4, "2026-05-11", "2026-06-30", 10.15, 172_775, 2450, "high"],
      // 10.40% from 2026-07-01: secondary sources only.
      [4, "2026-07-01", "2026-11-21", 10.4, 172_775, 7089, "medium"],
    ]);
    expect(WikCalculationSchema.parse(result)).toStrictEqual(result);
  });

  it("marks rates the table is not sure of, per period and in basis (RULES § 4)", () => {
    // 6:119 for 2025: 6% all year, corroborated (the 2025-07-01 conflict is resolved in the table).
    for (const today of ["2025-06-30", "2025-12-31"]) {
      const y2025 = calculateWik({ amount_cents: 100_000, due_date: "2024-12-31" }, { today });
      expect(y2025.interest.periods.map((p) => [p.from, p.to, p.rate_percent, p.rate_confidence])).toEqual([
        ["2025-01-01", today, 6, "high"],
      ]);
      expect(y2025.basis).not.toContain("Not every rate used");
    }
    // 6:119 from 2026-01-01 (4%): secondary sources only.
    const y2026 = calculateWik({ amount_cents: 100_000, due_date: "2025-03-31" }, { today: "2026-02-15" });
    expect(y2026.interest.periods.map((p) => [p.from, p.to, p.rate_confidence])).toEqual([
      ["2025-04-01", "2025-12-31", "high"],
      ["2026-01-01", "2026-02-15", "medium"],
    ]);
    expect(y2026.basis).toContain(
      'Not every rate used is confirmed by an official publication: for 2026-01-01 to 2026-02-15 the rate rests on secondary sources only (periods with rate_confidence "medium"); check those rates before relying on the interest.',
    );
    // 6:119 rows of 2026-01-01 and 2026-07-01 (4% both): secondary sources only, merged in basis.
    const consumer = calculateWik({ amount_cents: 100_000, due_date: "2025-12-31" }, { today: "2026-09-30" });
    expect(consumer.interest.periods.map((p) => [p.from, p.to, p.rate_confidence])).toEqual([
      ["2026-01-01", "2026-09-30", "medium"],
    ]);
    expect(consumer.basis).toContain(
      "for 2026-01-01 to 2026-09-30 the rate rests on secondary sources only (periods",
    );
    // Handelsrente 2025-07-01 and 2026-01-01 (10.15%): confirmed; 2026-07-01 (10.40%): secondary.
    const business = calculateWik(
      { amount_cents: 100_000, debtor_type: "business", due_date: "2025-06-30" },
      { today: "2026-09-30" },
    );
    expect(business.interest.periods.map((p) => [p.from, p.to, p.rate_percent, p.rate_confidence])).toEqual([
      ["2025-07-01", "2026-06-30", 10.15, "high"],
      ["2026-07-01", "2026-09-30", 10.4, "medium"],
    ]);
    expect(business.basis).toContain(
      "for 2026-07-01 to 2026-09-30 the rate rests on secondary sources only (periods",
    );
    // Without interest days nothing uncertain was used.
    const none = calculateWik({ amount_cents: 100_000 }, { today: "2026-02-15" });
    expect(none.basis).not.toContain("Not every rate used");
  });

  it("applies the spec's defaults: consumer, no VAT, no interest without a due date", () => {
    const result = calculateWik({ amount_cents: 100_000 }, TODAY);
    expect(result).toMatchObject({
      debtor_type: "consumer",
      collection_costs_cents: 15_000,
      collection_costs_vat_cents: 0,
      interest: {
        amount_cents: 0,
        days: 0,
        rate_percent: 4,
        type: "wettelijke_rente",
        due_date: null,
        periods: [],
      },
      total_amount_cents: 115_000,
    });
    expect(result.basis).toContain("Interest: none computed, no due date given.");
    expect(result.basis).toContain("without VAT");
  });

  it("refuses a null due_date on the same field as WikRequestSchema (absent is not null)", () => {
    const request = { amount_cents: 100_000, due_date: null } as unknown as WikRequestInput;
    expect(() => calculateWik(request, TODAY)).toThrowError(
      expect.objectContaining({ name: "WikError", code: "invalid_date", field: "due_date" }),
    );
    expect(WikRequestSchema.safeParse(request).error?.issues.map((i) => i.path.join("."))).toEqual([
      "due_date",
    ]);
    // Leaving it out is the way to say "no due date".
    expect(calculateWik({ amount_cents: 100_000 }, TODAY).interest.due_date).toBeNull();
  });

  it("gives zero interest for a due date in the future", () => {
    const result = calculateWik({ amount_cents: 100_000, due_date: "2027-01-31" }, TODAY);
    expect(result.interest).toMatchObject({ amount_cents: 0, days: 0, due_date: "2027-01-31", periods: [] });
    expect(result.total_amount_cents).toBe(115_000);
    expect(result.basis).toContain("Interest: none yet, the due date 2027-01-31 is not before 2026-11-21.");
  });

  it("notes that the BIK scale does not apply to a default before 1 July 2012 (art. 3 BIK)", () => {
    const before = calculateWik({ amount_cents: 100_000, due_date: "2012-06-29" }, TODAY);
    expect(before.basis).toContain("(art. 3 BIK)");
    const after = calculateWik({ amount_cents: 100_000, due_date: "2012-06-30" }, TODAY);
    expect(after.basis).not.toContain("(art. 3 BIK)");
  });

  it("takes today as a Date in Dutch time", () => {
    const result = calculateWik(
      { amount_cents: 100_000, due_date: "2026-11-20" },
      { today: new Date("2026-11-20T23:30:00Z") },
    );
    expect(result.interest.end_date).toBe("2026-11-21");
    expect(result.interest.days).toBe(1);
  });

  it("passes the day count and beyond-table options on", () => {
    const request = { amount_cents: 36_500_000, due_date: "2024-02-28" };
    expect(
      calculateWik(request, { today: "2024-03-01", dayCount: "actual/compounding-year" }).interest
        .amount_cents,
    ).toBe(13_962);
    expect(() => calculateWik(request, { today: "2027-01-01", beyondRateTable: "throw" })).toThrowError(
      expect.objectContaining({ code: "beyond_rate_table", field: "due_date" }),
    );
  });

  it.each([
    [null, "invalid_request", undefined],
    [{}, "invalid_amount", "amount_cents"],
    [{ amount_cents: 0 }, "invalid_amount", "amount_cents"],
    [{ amount_cents: 100, debtor_type: "company" }, "invalid_debtor_type", "debtor_type"],
    [{ amount_cents: 100, include_vat: "yes" }, "invalid_option", "include_vat"],
    [{ amount_cents: 100, due_date: "2025-02-29" }, "invalid_date", "due_date"],
    [{ amount_cents: 100, due_date: new Date("2025-01-01") }, "invalid_date", "due_date"],
    [{ amount_cents: 100, due_date: null }, "invalid_date", "due_date"],
    [{ amount_cents: 100, debtor_type: null }, "invalid_debtor_type", "debtor_type"],
    [{ amount_cents: 100, include_vat: null }, "invalid_option", "include_vat"],
    [{ amount_cents: 100, due_date: "1999-12-31" }, "date_before_rate_table", "due_date"],
    [
      { amount_cents: Number.MAX_SAFE_INTEGER, due_date: "2003-01-01" },
      "result_out_of_range",
      "amount_cents",
    ],
    [{ amount_cents: Number.MAX_SAFE_INTEGER - 1000 }, "result_out_of_range", "amount_cents"],
  ])("refuses %j with %s on %s", (request, code, field) => {
    expect(() => calculateWik(request as unknown as WikRequestInput, TODAY)).toThrowError(
      expect.objectContaining({ code, field }),
    );
  });

  it("refuses bad options with invalid_option or invalid_date", () => {
    expect(() => calculateWik({ amount_cents: 1 }, { today: "21-11-2026" })).toThrowError(
      expect.objectContaining({ code: "invalid_date", field: "today" }),
    );
    expect(() => calculateWik({ amount_cents: 1 }, null as unknown as object)).toThrowError(
      expect.objectContaining({ code: "invalid_option", field: "options" }),
    );
    expect(() =>
      calculateWik({ amount_cents: 1 }, { today: "2026-11-21", dayCount: "365" as "actual/365" }),
    ).toThrowError(expect.objectContaining({ code: "invalid_option", field: "dayCount" }));
  });

  it("always returns a schema-valid object whose total is the sum of its parts", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000_000 }),
        fc.constantFrom("consumer" as const, "business" as const),
        fc.option(fc.integer({ min: Date.parse("2002-08-08"), max: Date.parse("2027-12-31") }), {
          nil: undefined,
        }),
        fc.boolean(),
        (amount, debtorType, dueMs, includeVat) => {
          const request: WikRequestInput = {
            amount_cents: amount,
            debtor_type: debtorType,
            include_vat: includeVat,
            ...(dueMs === undefined ? {} : { due_date: new Date(dueMs).toISOString().slice(0, 10) }),
          };
          const result = calculateWik(request, TODAY);
          expect(WikCalculationSchema.safeParse(result).success).toBe(true);
          expect(result.total_amount_cents).toBe(
            amount +
              result.collection_costs_cents +
              result.collection_costs_vat_cents +
              result.interest.amount_cents,
          );
          // the costs are on the principal only, whatever the interest (art. 2 lid 1 BIK)
          expect(result.collection_costs_cents).toBe(
            calculateWik({ amount_cents: amount }, TODAY).collection_costs_cents,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
