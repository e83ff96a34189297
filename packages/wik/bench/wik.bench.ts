/**
 * Calculations per second of the wik library. Run: pnpm exec tsx packages/wik/bench/wik.bench.ts
 * Each case is warmed up, then timed in five rounds of about 0.5 s; the median round is reported.
 * Targets (issue 3): costs alone >= 1,000,000/s, costs with ten years of interest >= 100,000/s.
 */
import { arch, cpus } from "node:os";
import { calculateCollectionCosts, calculateStatutoryInterest, calculateWik } from "../src/index.js";

interface Case {
  name: string;
  target: number | null;
  run: (i: number) => number;
}

// Varying principals keep the optimiser from hoisting the work out of the loop.
const principals = Array.from({ length: 1024 }, (_, i) => 1 + ((i * 7_919_993) % 150_000_000));
const TODAY = { today: "2026-11-21" };

const cases: Case[] = [
  {
    name: "calculateCollectionCosts (costs alone)",
    target: 1_000_000,
    run: (i) => calculateCollectionCosts(principals[i & 1023] as number).collection_costs_cents,
  },
  {
    name: "calculateCollectionCosts with VAT",
    target: null,
    run: (i) =>
      calculateCollectionCosts(principals[i & 1023] as number, { includeVat: true })
        .collection_costs_vat_cents,
  },
  {
    name: "calculateWik, no due date (costs, wire object)",
    target: null,
    run: (i) => calculateWik({ amount_cents: principals[i & 1023] as number }, TODAY).total_amount_cents,
  },
  {
    name: "calculateWik, consumer, ten years of interest",
    target: 100_000,
    run: (i) =>
      calculateWik({ amount_cents: principals[i & 1023] as number, due_date: "2016-11-21" }, TODAY)
        .total_amount_cents,
  },
  {
    name: "calculateWik, business, ten years of interest",
    target: 100_000,
    run: (i) =>
      calculateWik(
        {
          amount_cents: principals[i & 1023] as number,
          debtor_type: "business",
          due_date: "2016-11-21",
          include_vat: true,
        },
        TODAY,
      ).total_amount_cents,
  },
  {
    name: "calculateStatutoryInterest, business, ten years",
    target: null,
    run: (i) =>
      calculateStatutoryInterest({
        principalCents: principals[i & 1023] as number,
        debtorType: "business",
        dueDate: "2016-11-21",
        endDate: "2026-11-21",
      }).amount_cents,
  },
];

let sink = 0;

function timeRound(run: Case["run"], minNs: bigint): number {
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < minNs) {
    for (let i = 0; i < 1_000; i++) sink += run(iterations + i);
    iterations += 1_000;
    elapsed = process.hrtime.bigint() - start;
  }
  return (iterations * 1e9) / Number(elapsed);
}

const rows: string[] = [];
for (const c of cases) {
  timeRound(c.run, 300_000_000n); // warm-up
  const rounds = Array.from({ length: 5 }, () => timeRound(c.run, 500_000_000n)).sort((a, b) => a - b);
  const median = rounds[2] as number;
  const target = c.target === null ? "" : `>= ${c.target.toLocaleString("en-US")}`;
  const verdict = c.target === null ? "" : median >= c.target ? "met" : "NOT met";
  rows.push(
    `| ${c.name} | ${Math.round(median).toLocaleString("en-US")} | ${(1e9 / median).toFixed(0)} | ${target} | ${verdict} |`,
  );
}

console.log(
  `wik benchmark, Node ${process.version}, ${arch()}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"})\n`,
);
console.log("| case | calculations/s (median of 5) | ns per calculation | target | |");
console.log("|---|---:|---:|---:|---|");
for (const row of rows) console.log(row);
if (sink === 0) console.log("(sink)");
