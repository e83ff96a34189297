import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideRoundHalfUp, multiplyDivideRoundHalfUp, safeAdd } from "./rounding.js";

describe("rounding", () => {
  it("rounds halves up and the rest to the nearest integer", () => {
    expect([0, 4, 5, 6, 14, 15, 25].map((n) => divideRoundHalfUp(n, 10))).toEqual([0, 0, 1, 1, 1, 2, 3]);
    expect(divideRoundHalfUp(375_005, 1000)).toBe(375);
    expect(divideRoundHalfUp(37_500_500, 1000)).toBe(37_501);
  });

  it("agrees with BigInt arithmetic, also for products beyond 2^53", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 366 }),
        fc.constantFrom(3_650_000, 3_660_000, 1000, 100),
        (a, b, c, d) => {
          const big = BigInt(a) * BigInt(b) * BigInt(c);
          const expected = (big * 2n + BigInt(d)) / (2n * BigInt(d));
          if (expected <= BigInt(Number.MAX_SAFE_INTEGER)) {
            expect(multiplyDivideRoundHalfUp(a, b, c, d)).toBe(Number(expected));
          } else {
            expect(() => multiplyDivideRoundHalfUp(a, b, c, d)).toThrowError(
              expect.objectContaining({ code: "result_out_of_range" }),
            );
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("refuses sums beyond the safe integers", () => {
    expect(safeAdd(1, 2)).toBe(3);
    expect(() => safeAdd(Number.MAX_SAFE_INTEGER, 1)).toThrowError(
      expect.objectContaining({ code: "result_out_of_range" }),
    );
  });
});
