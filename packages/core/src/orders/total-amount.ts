/**
 * The sum of the invoices' `amount_cents` as supplied (spec Order.total_amount_cents: "sum of
 * invoices as supplied, excluding collection costs and interest"). Within the spec's limits the
 * largest total is 50 × 100000000000 = 5 × 10^12 cents, far below 2^53, so the sum is exact.
 *
 * @example
 * totalAmountCents([{ amount_cents: 125000 }, { amount_cents: 250 }]); // 125250
 */
export function totalAmountCents(invoices: ReadonlyArray<{ amount_cents: number }>): number {
  let total = 0;
  for (const invoice of invoices) total += invoice.amount_cents;
  return total;
}
