/**
 * One tier of the scale of art. 2 lid 1 of the Besluit vergoeding voor buitengerechtelijke
 * incassokosten (BIK): `permille` thousandths of the part of the principal between the previous
 * tier's `upToCents` and this one's (`null`: no upper bound).
 *
 * @example
 * ```ts
 * import type { CollectionCostsTier } from "@incasso/wik";
 * const first: CollectionCostsTier = { upToCents: 250_000, permille: 150 };
 * ```
 */
export interface CollectionCostsTier {
  readonly upToCents: number | null;
  readonly permille: number;
}

/**
 * The BIK scale (art. 2 lid 1 BIK, spec "POST /tools/wik"): 15% over the first EUR 2,500 of the
 * principal, 10% over the next 2,500, 5% over the next 5,000, 1% over the next 190,000 and 0.5%
 * over the rest. Rates are in permille so that every fee is an exact number of thousandths of a
 * cent before rounding.
 *
 * @example
 * ```ts
 * import { COLLECTION_COSTS_SCALE } from "@incasso/wik";
 * COLLECTION_COSTS_SCALE[0]; // { upToCents: 250000, permille: 150 }
 * ```
 */
export const COLLECTION_COSTS_SCALE: readonly CollectionCostsTier[] = Object.freeze([
  Object.freeze({ upToCents: 250_000, permille: 150 }),
  Object.freeze({ upToCents: 500_000, permille: 100 }),
  Object.freeze({ upToCents: 1_000_000, permille: 50 }),
  Object.freeze({ upToCents: 20_000_000, permille: 10 }),
  Object.freeze({ upToCents: null, permille: 5 }),
]);

/**
 * The minimum fee, EUR 40 (art. 2 lid 2 BIK).
 *
 * @example
 * ```ts
 * import { COLLECTION_COSTS_MINIMUM_CENTS } from "@incasso/wik";
 * COLLECTION_COSTS_MINIMUM_CENTS; // 4000
 * ```
 */
export const COLLECTION_COSTS_MINIMUM_CENTS = 4_000;

/**
 * The maximum fee, EUR 6,775 (art. 2 lid 1 BIK). It is reached at a principal of exactly
 * EUR 1,000,000.
 *
 * @example
 * ```ts
 * import { COLLECTION_COSTS_MAXIMUM_CENTS } from "@incasso/wik";
 * COLLECTION_COSTS_MAXIMUM_CENTS; // 677500
 * ```
 */
export const COLLECTION_COSTS_MAXIMUM_CENTS = 677_500;

/**
 * The VAT percentage added to the fee when asked (art. 2 lid 3 BIK refers to the general rate of
 * art. 9 lid 1 Wet op de omzetbelasting 1968; 21% per the spec and the package's RULES source).
 *
 * @example
 * ```ts
 * import { COLLECTION_COSTS_VAT_PERCENT } from "@incasso/wik";
 * COLLECTION_COSTS_VAT_PERCENT; // 21
 * ```
 */
export const COLLECTION_COSTS_VAT_PERCENT = 21;
