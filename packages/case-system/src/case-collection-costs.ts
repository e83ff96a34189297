import { calculateCollectionCosts } from "@incasso/wik";

/**
 * A payment booked on a case, as the collection costs need it: its amount and the day it was made.
 *
 * @example
 * const p: CostsPayment = { amountCents: 20_000, paymentDate: "2026-11-10" };
 */
export interface CostsPayment {
  amountCents: number;
  /** `YYYY-MM-DD`. */
  paymentDate: string;
}

/**
 * What a 14-day letter fixed: its date, the claims it covered (every invoice added to the case up
 * to `claimsThrough`) and the collection costs it announced.
 *
 * @example
 * const l: CostsLetter = { letterDate: "2026-11-21", sentAt: "2026-11-21T10:00:00.000Z",
 *   claimsThrough: "2026-11-20T09:00:00.000Z", collectionCostsCents: 40_510 };
 */
export interface CostsLetter {
  /** `YYYY-MM-DD`: the day the letter is dated. */
  letterDate: string;
  /** ISO instant the letter was made; the latest one speaks for the case. */
  sentAt: string;
  /** ISO instant of the newest invoice the letter listed. */
  claimsThrough: string;
  collectionCostsCents: number;
}

/**
 * A claim (invoice) on the case: its principal, when it came onto the case and whether its order
 * asked for our 14-day letter (`pre-incasso`) or came after the client's own (`incasso`).
 *
 * @example
 * const c: CostsClaim = { amountCents: 300_100, addedAt: "2026-11-20T09:00:00.000Z", preIncasso: true };
 */
export interface CostsClaim {
  amountCents: number;
  /** ISO instant; without it the claim counts as covered by any letter. */
  addedAt?: string;
  /** True for a claim of a pre-incasso order: its costs come from our letter only. */
  preIncasso?: boolean;
}

/**
 * The costs a 14-day letter states, and the principal they are taken over.
 *
 * @example
 * const c: LetterCosts = { principalCents: 300_100, paidBeforeCents: 20_000, outstandingCents: 280_100, collectionCostsCents: 40_510 };
 */
export interface LetterCosts {
  /** The claims the letter lists, added together (art. 6:96 lid 7 BW). */
  principalCents: number;
  /** Payments received before the letter. */
  paidBeforeCents: number;
  /** principal − paid before: the base of the costs. */
  outstandingCents: number;
  /** BIK scale on the outstanding principal, without VAT; 0 when nothing is outstanding. */
  collectionCostsCents: number;
}

/**
 * The sum of the payments received before a letter of `letterDate`: made on or before that day.
 * A payment of the letter's own day is taken as received before it, in the debtor's favour.
 *
 * @example
 * paidBefore([{ amountCents: 20_000, paymentDate: "2026-11-10" }, { amountCents: 5_000, paymentDate: "2026-11-30" }], "2026-11-21"); // 20000
 */
export function paidBefore(payments: ReadonlyArray<CostsPayment>, letterDate: string): number {
  // ISO dates of four-digit years compare correctly as text.
  return payments.reduce((sum, p) => (p.paymentDate <= letterDate ? sum + p.amountCents : sum), 0);
}

/**
 * The collection costs a 14-day letter announces (art. 6:96 lid 6 BW): the BIK scale (art. 2 BIK)
 * over the principal of the claims it lists added together (art. 6:96 lid 7 BW), lowered by the
 * payments received before the letter, without VAT (art. 2 lid 3 BIK needs a statement of the
 * creditor we do not have). The one formula for the letter and the balance (decision
 * case-system-collection-costs).
 *
 * @example
 * costsAtLetter({ principalCents: 300_100, paidBeforeCents: 20_000 });
 * // { principalCents: 300100, paidBeforeCents: 20000, outstandingCents: 280100, collectionCostsCents: 40510 }
 */
export function costsAtLetter(input: { principalCents: number; paidBeforeCents: number }): LetterCosts {
  const outstandingCents = input.principalCents - input.paidBeforeCents;
  return {
    principalCents: input.principalCents,
    paidBeforeCents: input.paidBeforeCents,
    outstandingCents,
    collectionCostsCents:
      outstandingCents > 0 ? calculateCollectionCosts(outstandingCents).collection_costs_cents : 0,
  };
}

function instant(iso: string): number {
  return Date.parse(iso);
}

/**
 * The collection costs a case charges (decision case-system-collection-costs):
 *
 * - the claims the latest 14-day letter listed carry what that letter announced, recomputed with
 *   the same formula ({@link costsAtLetter}) on what is known now and never more than announced
 *   (art. 6:96 lid 6 BW): a payment received before the letter but booked after it lowers them,
 *   a payment after the letter does not;
 * - claims added after it carry the costs of their own letter: none yet for a pre-incasso order
 *   (the next letter lists them with the rest); the scale over their principals added together
 *   for an incasso order, whose client sent the letter before the order;
 * - without any letter of ours, the claims of incasso orders carry the scale over their principals
 *   added together (the client's letter came before the order, so no payment on the case preceded
 *   it) and those of pre-incasso orders none.
 *
 * @example
 * caseCollectionCosts({
 *   claims: [{ amountCents: 300_100, addedAt: "2026-11-20T09:00:00.000Z", preIncasso: true }],
 *   payments: [{ amountCents: 20_000, paymentDate: "2026-11-25" }],
 *   letters: [{ letterDate: "2026-11-21", sentAt: "2026-11-21T10:00:00.000Z", claimsThrough: "2026-11-20T09:00:00.000Z", collectionCostsCents: 42_510 }],
 * }); // 42510: the payment came after the letter
 */
export function caseCollectionCosts(input: {
  claims: ReadonlyArray<CostsClaim>;
  payments: ReadonlyArray<CostsPayment>;
  letters: ReadonlyArray<CostsLetter>;
}): number {
  let latest: CostsLetter | undefined;
  for (const letter of input.letters) {
    if (latest === undefined || instant(letter.sentAt) >= instant(latest.sentAt)) latest = letter;
  }
  let coveredCents = 0;
  let laterIncassoCents = 0;
  for (const claim of input.claims) {
    const covered =
      latest !== undefined &&
      (claim.addedAt === undefined || instant(claim.addedAt) <= instant(latest.claimsThrough));
    if (covered) coveredCents += claim.amountCents;
    else if (claim.preIncasso !== true) laterIncassoCents += claim.amountCents;
  }
  let costs = 0;
  if (latest !== undefined && coveredCents > 0) {
    const now = costsAtLetter({
      principalCents: coveredCents,
      paidBeforeCents: paidBefore(input.payments, latest.letterDate),
    }).collectionCostsCents;
    costs += Math.min(latest.collectionCostsCents, now);
  }
  if (laterIncassoCents > 0) {
    costs += calculateCollectionCosts(laterIncassoCents).collection_costs_cents;
  }
  return costs;
}
