import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { totalAmountCents } from "./total-amount.js";

describe("totalAmountCents", () => {
  it("sums the amounts as supplied", () => {
    expect(totalAmountCents([{ amount_cents: 125000 }, { amount_cents: 250 }])).toBe(125250);
    expect(totalAmountCents([])).toBe(0);
  });

  it("is exact at the largest total the limits allow: 50 × 100000000000", () => {
    const invoices = Array.from({ length: 50 }, () => ({ amount_cents: 100_000_000_000 }));
    expect(totalAmountCents(invoices)).toBe(5_000_000_000_000);
  });

  it("equals a BigInt sum for any valid list (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000_000_000 }), { minLength: 1, maxLength: 50 }),
        (amounts) => {
          const exact = amounts.reduce((s, a) => s + BigInt(a), 0n);
          expect(BigInt(totalAmountCents(amounts.map((amount_cents) => ({ amount_cents }))))).toBe(exact);
        },
      ),
    );
  });
});
