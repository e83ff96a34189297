import {
  COLLECTION_COSTS_MAXIMUM_CENTS,
  COLLECTION_COSTS_MINIMUM_CENTS,
  COLLECTION_COSTS_SCALE,
  COLLECTION_COSTS_VAT_PERCENT,
} from "../collection-costs-scale.js";
import { divideRoundHalfUp } from "./rounding.js";

// Above this principal every further cent is taxed at 0.5% into the cap: 2,775 + 0.5% x 800,000
// = 6,775 EUR at exactly EUR 1,000,000 (RULES 1.1). Clamping keeps the arithmetic small.
const CAP_PRINCIPAL_CENTS = 100_000_000;

/** The fee for a principal already known to be valid. */
export function collectionCostsCents(principalCents: number): number {
  const base = Math.min(principalCents, CAP_PRINCIPAL_CENTS);
  // Thousandths of a cent: the scale percentages are whole permille, so this sum is exact.
  let milliCents = 0;
  let lower = 0;
  for (const tier of COLLECTION_COSTS_SCALE) {
    const upper = tier.upToCents === null ? base : Math.min(base, tier.upToCents);
    if (upper <= lower) break;
    milliCents += (upper - lower) * tier.permille;
    lower = upper;
  }
  // The law is silent on rounding; whole cents, half up (RULES 1.4; decision
  // docs/decisions/wik-day-count-and-rounding.md). Min and max apply to the rounded fee.
  const fee = divideRoundHalfUp(milliCents, 1000);
  if (fee < COLLECTION_COSTS_MINIMUM_CENTS) return COLLECTION_COSTS_MINIMUM_CENTS;
  return Math.min(fee, COLLECTION_COSTS_MAXIMUM_CENTS);
}

/** 21% of the fee, rounded half up; applied after the minimum and maximum (art. 2 lid 3 BIK). */
export function vatCents(costsCents: number): number {
  return divideRoundHalfUp(costsCents * COLLECTION_COSTS_VAT_PERCENT, 100);
}
