import { collectionCostsCents, vatCents } from "./internal/bik-fee.js";
import { assertPrincipal, readBoolean, readOptions } from "./internal/validate.js";

/**
 * Options of {@link calculateCollectionCosts}.
 *
 * @example
 * ```ts
 * import type { CollectionCostsOptions } from "@incasso/wik";
 * const options: CollectionCostsOptions = { includeVat: true };
 * ```
 */
export interface CollectionCostsOptions {
  /**
   * Add 21% VAT on the fee. Only lawful when the creditor cannot reclaim the VAT it pays on the
   * collection service and says so explicitly (art. 2 lid 3 BIK); that is not checked here.
   * Default `false`.
   */
  includeVat?: boolean;
}

/**
 * The collection-cost fields of a WikCalculation (spec "WikCalculation"), in cents.
 *
 * @example
 * ```ts
 * import type { CollectionCosts } from "@incasso/wik";
 * const costs: CollectionCosts = { collection_costs_cents: 4000, collection_costs_vat_cents: 840 };
 * ```
 */
export interface CollectionCosts {
  /** Fee on the BIK scale, without VAT. */
  collection_costs_cents: number;
  /** VAT on the fee; 0 unless `includeVat` was true. */
  collection_costs_vat_cents: number;
}

/**
 * Statutory extrajudicial collection costs on a principal, per art. 2 BIK: the scale applied per
 * portion of the principal (like tax brackets), rounded half up to whole cents, then at least
 * EUR 40 and at most EUR 6,775; optionally plus 21% VAT on that fee, rounded half up.
 *
 * The base is the principal only, never interest (art. 2 lid 1 BIK: "van het bedrag van de
 * hoofdsom"). Several claims of one creditor against a consumer are added together first
 * (art. 6:96 lid 7 BW): pass their sum. Whether the fee may be charged at all (a 14-day letter for
 * consumers, art. 6:96 lid 6 BW; default on or after 1 July 2012, art. 3 BIK) is not checked.
 *
 * @param principalCents - the principal in cents; a safe integer of at least 1.
 * @throws {@link WikError} `invalid_amount` or `invalid_option`.
 * @example
 * ```ts
 * import { calculateCollectionCosts } from "@incasso/wik";
 * calculateCollectionCosts(1_000_000); // { collection_costs_cents: 87500, collection_costs_vat_cents: 0 }
 * calculateCollectionCosts(10_000, { includeVat: true }); // { collection_costs_cents: 4000, collection_costs_vat_cents: 840 }
 * ```
 */
export function calculateCollectionCosts(
  principalCents: number,
  options: CollectionCostsOptions = {},
): CollectionCosts {
  assertPrincipal(principalCents, "principalCents");
  const includeVat = readBoolean(readOptions(options).includeVat, "includeVat", "invalid_option");
  const costs = collectionCostsCents(principalCents);
  return {
    collection_costs_cents: costs,
    collection_costs_vat_cents: includeVat ? vatCents(costs) : 0,
  };
}
