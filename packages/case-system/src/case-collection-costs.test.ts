import { describe, expect, it } from "vitest";
import { caseCollectionCosts, costsAtLetter, paidBefore } from "./case-collection-costs.js";

// The scale (wik RULES.md §1.1): 15% of the first € 2.500, 10% of the next € 2.500, 5% of the next
// € 5.000. € 3.001,00 → 375 + 50,10 = € 425,10; € 2.801,00 → 375 + 30,10 = € 405,10;
// € 4.051,00 → 375 + 155,10 = € 530,10; € 1.250,00 → € 187,50.
const firstAdded = "2026-11-20T09:00:00.000Z";
const laterAdded = "2026-11-25T09:00:00.000Z";
const letter = (over: Partial<Parameters<typeof caseCollectionCosts>[0]["letters"][number]> = {}) => ({
  letterDate: "2026-11-21",
  sentAt: "2026-11-21T10:00:00.000Z",
  claimsThrough: firstAdded,
  collectionCostsCents: 40_510,
  ...over,
});

describe("paidBefore", () => {
  it("counts the payments made on or before the letter's day", () => {
    const payments = [
      { amountCents: 20_000, paymentDate: "2026-11-10" },
      { amountCents: 1_000, paymentDate: "2026-11-21" },
      { amountCents: 5_000, paymentDate: "2026-11-22" },
    ];
    expect(paidBefore(payments, "2026-11-21")).toBe(21_000);
    expect(paidBefore([], "2026-11-21")).toBe(0);
  });
});

describe("costsAtLetter", () => {
  it("takes the scale over the principal lowered by the payments before the letter", () => {
    expect(costsAtLetter({ principalCents: 300_100, paidBeforeCents: 20_000 })).toEqual({
      principalCents: 300_100,
      paidBeforeCents: 20_000,
      outstandingCents: 280_100,
      collectionCostsCents: 40_510,
    });
    expect(costsAtLetter({ principalCents: 300_100, paidBeforeCents: 0 }).collectionCostsCents).toBe(42_510);
  });

  it("states no costs when nothing is outstanding", () => {
    expect(costsAtLetter({ principalCents: 10_000, paidBeforeCents: 10_000 })).toEqual({
      principalCents: 10_000,
      paidBeforeCents: 10_000,
      outstandingCents: 0,
      collectionCostsCents: 0,
    });
  });
});

describe("caseCollectionCosts", () => {
  const claim = { amountCents: 300_100, addedAt: firstAdded, preIncasso: true };

  it("charges what the letter announced, whatever was paid after it", () => {
    expect(
      caseCollectionCosts({
        claims: [claim],
        payments: [
          { amountCents: 20_000, paymentDate: "2026-11-10" },
          { amountCents: 50_000, paymentDate: "2026-11-30" },
        ],
        letters: [letter()],
      }),
    ).toBe(40_510);
  });

  it("never charges more than announced: a payment made before the letter but booked later lowers the costs", () => {
    // The letter announced € 425,10 on € 3.001,00; a payment of 10 November booked afterwards
    // shows the law's principal was € 2.801,00.
    expect(
      caseCollectionCosts({
        claims: [claim],
        payments: [{ amountCents: 20_000, paymentDate: "2026-11-10" }],
        letters: [letter({ collectionCostsCents: 42_510 })],
      }),
    ).toBe(40_510);
  });

  it("a pre-incasso claim carries no costs before its letter; an incasso claim the scale on its own", () => {
    expect(caseCollectionCosts({ claims: [claim], payments: [], letters: [] })).toBe(0);
    expect(
      caseCollectionCosts({ claims: [{ ...claim, preIncasso: false }], payments: [], letters: [] }),
    ).toBe(42_510);
    // Without addedAt or preIncasso (callers of computeCaseBalance before letters were known):
    // the scale over the principals added together.
    expect(
      caseCollectionCosts({
        claims: [{ amountCents: 100_000 }, { amountCents: 200_000 }],
        payments: [],
        letters: [],
      }),
    ).toBe(42_500);
  });

  it("a merge after the letter: the new pre-incasso claims wait for their own letter, incasso claims carry their own scale", () => {
    const later = { amountCents: 125_000, addedAt: laterAdded, preIncasso: true };
    const payments = [{ amountCents: 20_000, paymentDate: "2026-11-10" }];
    expect(caseCollectionCosts({ claims: [claim, later], payments, letters: [letter()] })).toBe(40_510);
    expect(
      caseCollectionCosts({
        claims: [claim, { ...later, preIncasso: false }],
        payments,
        letters: [letter()],
      }),
    ).toBe(40_510 + 18_750);
    // The second letter lists both claims together: € 4.251,00 − € 200,00 = € 4.051,00 → € 530,10.
    const second = letter({
      letterDate: "2026-11-26",
      sentAt: "2026-11-26T10:00:00.000Z",
      claimsThrough: laterAdded,
      collectionCostsCents: 53_010,
    });
    expect(caseCollectionCosts({ claims: [claim, later], payments, letters: [second, letter()] })).toBe(
      53_010,
    );
  });
});
