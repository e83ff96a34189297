import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeCaseBalance } from "./case-balance.js";

describe("computeCaseBalance", () => {
  it("adds BIK costs on the summed principals (art. 6:96 lid 7 BW) and handelsrente per invoice", () => {
    // 1,000 + 2,000 → costs on 3,000 = 375 + 50 = 425 EUR, not 150 + 300 (wik RULES §1.1).
    const b = computeCaseBalance({
      invoices: [
        { amountCents: 100_000, dueDate: "2026-11-21" },
        { amountCents: 200_000, dueDate: "2026-11-21" },
      ],
      paidCents: 0,
      consumer: false,
      today: "2026-11-21",
    });
    expect(b).toEqual({
      principalCents: 300_000,
      collectionCostsCents: 42_500,
      interestCents: 0,
      paidCents: 0,
      balanceDueCents: 342_500,
    });
  });

  it("uses wettelijke rente for a consumer: EUR 1,000 at 4% (2026) for 10 days is 110 cents", () => {
    // 100000 × 4% × 10 / 365 = 109.59 → 110 (rate 4% from 2026-01-01, wik rate table).
    const b = computeCaseBalance({
      invoices: [{ amountCents: 100_000, dueDate: "2026-03-01" }],
      paidCents: 0,
      consumer: true,
      today: "2026-03-11",
    });
    expect(b.interestCents).toBe(110);
    expect(b.collectionCostsCents).toBe(15_000);
  });

  it("counts interest from the first day of the rate table for older due dates", () => {
    const early = computeCaseBalance({
      invoices: [{ amountCents: 10_000, dueDate: "1999-01-01" }],
      paidCents: 0,
      consumer: false,
      today: "2002-08-18",
    });
    const atStart = computeCaseBalance({
      invoices: [{ amountCents: 10_000, dueDate: "2002-08-07" }],
      paidCents: 0,
      consumer: false,
      today: "2002-08-18",
    });
    expect(early.interestCents).toBe(atStart.interestCents);
    expect(early.interestCents).toBeGreaterThan(0);
  });

  it("subtracts payments and never goes below zero", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 20_000_000 }),
        (amount, paid) => {
          const b = computeCaseBalance({
            invoices: [{ amountCents: amount, dueDate: "2026-11-21" }],
            paidCents: paid,
            consumer: false,
            today: "2026-11-21",
          });
          expect(b.balanceDueCents).toBe(Math.max(0, amount + b.collectionCostsCents - paid));
          expect(b.collectionCostsCents).toBeGreaterThanOrEqual(4_000);
          expect(b.collectionCostsCents).toBeLessThanOrEqual(677_500);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("an empty case owes nothing", () => {
    expect(
      computeCaseBalance({ invoices: [], paidCents: 0, consumer: false, today: "2026-11-21" })
        .balanceDueCents,
    ).toBe(0);
  });
});
