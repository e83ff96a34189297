import { WikError } from "../errors.js";

/**
 * Exact integer arithmetic for money. Amounts are whole cents; rates are whole hundredths of a
 * percent; so every amount before rounding is an exact fraction and is rounded once, half up
 * (docs/decisions/wik-day-count-and-rounding.md). Products that would leave the range where a
 * JavaScript number is an exact integer (2^53) are computed with BigInt instead.
 */

/** `round(numerator / denominator)` with halves rounded up, for a safe integer numerator >= 0. */
export function divideRoundHalfUp(numerator: number, denominator: number): number {
  // `%` on integers below 2^53 is exact, unlike `Math.floor(n / d)`, which can round up first.
  const remainder = numerator % denominator;
  const quotient = (numerator - remainder) / denominator;
  return remainder * 2 >= denominator ? quotient + 1 : quotient;
}

/**
 * `round(a * b * c / denominator)`, half up, for non-negative safe integers. Throws
 * `result_out_of_range` when the rounded result is not a safe integer.
 */
export function multiplyDivideRoundHalfUp(a: number, b: number, c: number, denominator: number): number {
  const product = a * b * c;
  // A float product of integers is exact whenever the true product is below 2^53, and a true
  // product at or above 2^53 can never round down below it, so this test is exact.
  if (product <= Number.MAX_SAFE_INTEGER) return divideRoundHalfUp(product, denominator);
  const big = BigInt(a) * BigInt(b) * BigInt(c);
  const den = BigInt(denominator);
  const remainder = big % den;
  const quotient = (big - remainder) / den + (remainder * 2n >= den ? 1n : 0n);
  if (quotient > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new WikError("result_out_of_range", "the result does not fit in a safe integer number of cents");
  }
  return Number(quotient);
}

/** `a + b`, throwing `result_out_of_range` when the sum is not a safe integer. */
export function safeAdd(a: number, b: number): number {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) {
    throw new WikError("result_out_of_range", "the result does not fit in a safe integer number of cents");
  }
  return sum;
}
