// Case handling on the built-in case system (embedded PGlite, in memory): how fast the 14-day
// letter is written and laid out as a PDF, and how fast a handler's payment is booked with its
// payment.received row in the outbox (one transaction each). Run:
//   pnpm exec tsx packages/case-system/bench/case-handling.bench.ts
import { issueApiKey } from "@incasso/core";
import { createBuiltInCaseSystem } from "../src/built-in-case-system.js";
import { openCaseSystemStore } from "../src/open-case-system-store.js";
import { renderWikLetterPdf } from "../src/render-wik-letter.js";
import { composeWikLetter, type WikLetterInput } from "../src/wik-letter.js";

async function measure(
  name: string,
  iterations: number,
  warmup: number,
  fn: (i: number) => Promise<unknown>,
) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await fn(warmup + i);
    times.push(performance.now() - t);
  }
  const total = performance.now() - start;
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { name, iterations, perSecond: (iterations / total) * 1000, p50: p(0.5), p99: p(0.99) };
}

const letterInput = (invoices: number): WikLetterInput => ({
  letterDate: "2026-11-21",
  caseNumber: "2026-000001",
  reference: "BENCH-1",
  creditorName: "Bench BV",
  debtors: [
    {
      name: "Jan Jansen",
      address: {
        street: "Teststraat",
        house_number: "1",
        house_number_suffix: null,
        postal_code: "9999 ZZ",
        city: "Testdorp",
        country: "NL",
      },
    },
  ],
  invoices: Array.from({ length: invoices }, (_, i) => ({
    invoiceNumber: `F-${i + 1}`,
    invoiceDate: "2026-10-01",
    dueDate: "2026-10-15",
    amountCents: 12_345 + i,
  })),
  paidCents: 0,
});

const results = [];
results.push(
  await measure("14-day letter PDF, 1 invoice", 300, 30, () =>
    renderWikLetterPdf(composeWikLetter(letterInput(1))),
  ),
);
results.push(
  await measure("14-day letter PDF, 50 invoices", 100, 10, () =>
    renderWikLetterPdf(composeWikLetter(letterInput(50))),
  ),
);

const store = await openCaseSystemStore();
const { record } = await issueApiKey(store, { organisation: "Bench BV", mode: "live" });
const cases = createBuiltInCaseSystem({ store });
const orderId = "ord_00000000000be0c1";
const { caseNumber } = await cases.placeOnCase({
  orderId,
  organisationId: record.organisationId,
  creditor: { id: null, name: "Bench BV" },
  type: "incasso",
  reference: "BENCH-1",
  title: "Overeenkomst van opdracht voor factuur F-1",
  description: null,
  udfFields: {},
  debtors: [],
  note: null,
  at: new Date(),
  addresses: [],
  invoices: [],
});
results.push(
  await measure("bookPayment with its outbox event", 500, 50, () =>
    cases.bookPayment({ caseNumber, amountCents: 100, paymentDate: "2026-11-21" }),
  ),
);
const { rows } = await store.database.query<{ n: string }>(
  "SELECT count(*) AS n FROM webhook_events WHERE type = 'payment.received'",
);
await store.close();

console.log("| operation | iterations | per second | p50 ms | p99 ms |");
console.log("|---|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.iterations} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
  );
}
console.log(`\npayment.received rows written: ${rows[0]?.n} (expected 550)`);
