import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateCollectionCosts } from "./collection-costs.js";
import {
  COLLECTION_COSTS_MAXIMUM_CENTS,
  COLLECTION_COSTS_MINIMUM_CENTS,
  COLLECTION_COSTS_SCALE,
} from "./collection-costs-scale.js";

const costs = (principalCents: number) => calculateCollectionCosts(principalCents).collection_costs_cents;

describe("calculateCollectionCosts: the BIK scale (art. 2 BIK)", () => {
  // [principal, fee] in cents; the fee before rounding is given where it is not whole.
  it.each([
    // first tier, 15%: 2,500 EUR -> 375 EUR
    [249_999, 37_500], // 37,499.85
    [250_000, 37_500],
    [250_001, 37_500], // 37,500.10
    [250_005, 37_501], // 37,500.50: RULES 1.4, EUR 2,500.05 -> 375.005 -> 375.01 (half up)
    // second tier, 10%: 5,000 EUR -> 625 EUR
    [499_999, 62_500], // 62,499.90
    [500_000, 62_500],
    [500_001, 62_500], // 62,500.05
    // third tier, 5%: 10,000 EUR -> 875 EUR (das.nl: 375 + 250 + 250)
    [999_999, 87_500], // 87,499.95
    [1_000_000, 87_500],
    [1_000_001, 87_500], // 87,500.01
    // fourth tier, 1%: 200,000 EUR -> 2,775 EUR
    [19_999_999, 277_500], // 277,499.99
    [20_000_000, 277_500],
    [20_000_001, 277_500], // 277,500.005
    [20_000_100, 277_501], // 277,500.50
    // fifth tier, 0.5%
    [50_000_000, 427_500],
    // art. 6:96 lid 7 BW example in RULES 1.1: claims of 1,000 + 2,000 -> fee on 3,000 = 425
    [300_000, 42_500],
  ])("principal %i cents -> %i cents", (principal, expected) => {
    expect(costs(principal)).toBe(expected);
  });

  it("applies the EUR 40 minimum below EUR 266.67 (art. 2 lid 2 BIK)", () => {
    expect(costs(1)).toBe(4_000);
    expect(costs(10_000)).toBe(4_000);
    expect(costs(26_666)).toBe(4_000); // 3,999.90 -> 4,000
    expect(costs(26_667)).toBe(4_000); // 4,000.05
    expect(costs(26_669)).toBe(4_000); // 4,000.35
    expect(costs(26_670)).toBe(4_001); // 4,000.50, half up
    expect(costs(26_700)).toBe(4_005); // RULES 1.1: 15% x 267 = 40.05, not 40
  });

  it("caps the fee at EUR 6,775, reached at exactly EUR 1,000,000 (art. 2 lid 1 BIK)", () => {
    expect(costs(99_999_800)).toBe(677_499); // 677,499.00
    expect(costs(99_999_900)).toBe(677_500); // 677,499.50, half up
    expect(costs(99_999_999)).toBe(677_500); // 677,499.995
    expect(costs(100_000_000)).toBe(677_500);
    expect(costs(100_000_001)).toBe(677_500);
    expect(costs(100_000_000_000)).toBe(677_500);
    expect(costs(Number.MAX_SAFE_INTEGER)).toBe(677_500);
  });

  it("adds 21% VAT on the fee after the minimum and maximum (art. 2 lid 3 BIK)", () => {
    expect(calculateCollectionCosts(10_000, { includeVat: true })).toEqual({
      collection_costs_cents: 4_000,
      collection_costs_vat_cents: 840, // 40 -> 48.40
    });
    expect(calculateCollectionCosts(200_000_000, { includeVat: true })).toEqual({
      collection_costs_cents: 677_500,
      collection_costs_vat_cents: 142_275, // 6,775 -> 8,197.75
    });
    // 21% of 187.50 = 39.375 -> 39.38 (half up)
    expect(calculateCollectionCosts(125_000, { includeVat: true }).collection_costs_vat_cents).toBe(3_938);
    expect(calculateCollectionCosts(125_000, { includeVat: false }).collection_costs_vat_cents).toBe(0);
    expect(calculateCollectionCosts(125_000).collection_costs_vat_cents).toBe(0);
  });

  it("returns exactly the two wire fields", () => {
    expect(calculateCollectionCosts(1_000_000)).toStrictEqual({
      collection_costs_cents: 87_500,
      collection_costs_vat_cents: 0,
    });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "100", null, undefined])(
    "refuses principal %s with invalid_amount",
    (value) => {
      expect(() => calculateCollectionCosts(value as number)).toThrowError(
        expect.objectContaining({ code: "invalid_amount", field: "principalCents" }),
      );
    },
  );

  it("refuses a non-boolean includeVat and non-object options with invalid_option", () => {
    expect(() => calculateCollectionCosts(100, { includeVat: "yes" as unknown as boolean })).toThrowError(
      expect.objectContaining({ code: "invalid_option", field: "includeVat" }),
    );
    expect(() => calculateCollectionCosts(100, null as unknown as object)).toThrowError(
      expect.objectContaining({ code: "invalid_option", field: "options" }),
    );
  });
});

describe("calculateCollectionCosts: properties", () => {
  // Reference written independently of the implementation: the cumulative fee at the lower edge
  // of the principal's tier (RULES 1.1: 0, 375, 625, 875, 2,775 EUR) plus the tier's rate on the
  // rest, in exact thousandths of a cent (BigInt), rounded half up, then the minimum and cap.
  function referenceFee(principal: number): number {
    const edges = [0n, 250_000n, 500_000n, 1_000_000n, 20_000_000n];
    const cumulativeCents = [0n, 37_500n, 62_500n, 87_500n, 277_500n];
    const permille = [150n, 100n, 50n, 10n, 5n];
    const p = BigInt(principal);
    let tier = 4;
    while (p < (edges[tier] as bigint)) tier--;
    const milliCents =
      (cumulativeCents[tier] as bigint) * 1000n + (p - (edges[tier] as bigint)) * (permille[tier] as bigint);
    const rounded = (milliCents + 500n) / 1000n;
    const clamped = rounded < 4_000n ? 4_000n : rounded > 677_500n ? 677_500n : rounded;
    return Number(clamped);
  }

  it("matches an independent reference computation", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000_000 }), (principal) => {
        expect(costs(principal)).toBe(referenceFee(principal));
      }),
      { numRuns: 2_000 },
    );
  });

  it("never decreases as the principal grows and stays between the minimum and the cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        (principal, increase) => {
          const larger = Math.min(principal + increase, Number.MAX_SAFE_INTEGER);
          const a = costs(principal);
          const b = costs(larger);
          expect(b).toBeGreaterThanOrEqual(a);
          expect(a).toBeGreaterThanOrEqual(COLLECTION_COSTS_MINIMUM_CENTS);
          expect(b).toBeLessThanOrEqual(COLLECTION_COSTS_MAXIMUM_CENTS);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("grows by at most one cent per cent of principal (the top rate is 15%)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120_000_000 }), (principal) => {
        const step = costs(principal + 1) - costs(principal);
        expect(step === 0 || step === 1).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("VAT is 21% of the fee, rounded half up, and the total never exceeds EUR 8,197.75", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150_000_000 }), (principal) => {
        const result = calculateCollectionCosts(principal, { includeVat: true });
        expect(result.collection_costs_vat_cents).toBe(
          Math.floor((result.collection_costs_cents * 21 + 50) / 100),
        );
        expect(result.collection_costs_cents + result.collection_costs_vat_cents).toBeLessThanOrEqual(
          819_775,
        );
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("COLLECTION_COSTS_SCALE", () => {
  it("is the five tiers of art. 2 lid 1 BIK, frozen", () => {
    expect(COLLECTION_COSTS_SCALE).toEqual([
      { upToCents: 250_000, permille: 150 },
      { upToCents: 500_000, permille: 100 },
      { upToCents: 1_000_000, permille: 50 },
      { upToCents: 20_000_000, permille: 10 },
      { upToCents: null, permille: 5 },
    ]);
    expect(Object.isFrozen(COLLECTION_COSTS_SCALE)).toBe(true);
    expect(Object.isFrozen(COLLECTION_COSTS_SCALE[0])).toBe(true);
  });
});
