// Run from the repository root after `pnpm --filter @incasso/wik build`:
//   node packages/wik/examples/quick-start.mjs
// The package imports itself by name (Node resolves a package's own name through its exports map).
import {
  calculateCollectionCosts,
  calculateStatutoryInterest,
  calculateWik,
  isWikError,
  RATE_TABLE_LAST_KNOWN_DATE,
  WikRequestSchema,
} from "@incasso/wik";

// 1. The endpoint's request object in, the WikCalculation wire object out.
const request = WikRequestSchema.parse({
  amount_cents: 125_000,
  debtor_type: "business",
  due_date: "2025-03-31",
});
const calculation = calculateWik(request, { today: "2026-11-21" });
console.log("costs", calculation.collection_costs_cents, "interest", calculation.interest.amount_cents);
console.log("total", calculation.total_amount_cents, "beyond table", calculation.interest.beyond_rate_table);

// 2. Costs alone: EUR 10,000 -> EUR 875, plus 21% VAT.
console.log(calculateCollectionCosts(1_000_000, { includeVat: true }));

// 3. Interest alone, with its breakdown.
const interest = calculateStatutoryInterest({
  principalCents: 100_000,
  debtorType: "consumer",
  dueDate: "2022-12-15",
  endDate: "2024-01-31",
});
for (const period of interest.periods) {
  console.log(period.from, period.to, `${period.rate_percent}%`, period.amount_cents);
}
console.log("rate table known up to", RATE_TABLE_LAST_KNOWN_DATE);

// 4. Bad input throws an error with a stable code.
try {
  calculateCollectionCosts(0);
} catch (error) {
  if (isWikError(error)) console.log("error", error.code, error.field);
}
