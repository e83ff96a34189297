/**
 * Lookups per second, cold import time and heap of @incasso/rol-router.
 * Run: pnpm exec tsx packages/rol-router/bench/lookup.bench.ts (after `pnpm --filter @incasso/rol-router build`
 * for the cold-import part, which measures the built package the way users load it).
 * Throughput: each case is warmed up, then timed in five rounds of about 0.5 s; the median is reported.
 * Cold import: five fresh node processes each import dist/index.js once; the median is reported.
 * Targets (issue 4): >= 100,000 lookups/s warm; cold import < 150 ms; heap < 15 MB.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_DATASET, createRolRouter, deriveMaatgevendeLetter, lookupRolRouter } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const router = createRolRouter();
const TODAY = { today: "2026-11-21" };
const names = ["Jansen", "van der Berg", "de Vries B.V.", "'t Hart", "Stichting Woonbron", "Pietersen"];
const places = BUNDLED_DATASET.municipalities.flatMap((m) => m.places.map(([name]) => name));

interface Case {
  name: string;
  target: number | null;
  run: (i: number) => number;
}

const cases: Case[] = [
  {
    name: "lookup, status ok with hearing dates (Assen)",
    target: 100_000,
    run: (i) =>
      router.lookup({ woonplaats: "Assen", naam: names[i % 6] as string }, TODAY).opmerkingen.length,
  },
  {
    name: "lookup, mix of all 2,502 woonplaatsen",
    target: 100_000,
    run: (i) =>
      router.lookup({ woonplaats: places[i % places.length] as string, naam: "Jansen" }, TODAY).status.length,
  },
  {
    name: "lookupRolRouter (cached default router), everyday name",
    target: 100_000,
    run: (i) =>
      lookupRolRouter({ woonplaats: "Den Haag", naam: names[i % 6] as string }, TODAY).status.length,
  },
  {
    name: "lookup, ambiguous (Hengelo)",
    target: null,
    run: () => router.lookup({ woonplaats: "Hengelo", naam: "Jansen" }, TODAY).status.length,
  },
  {
    name: "lookup, not_found with suggestions (typo)",
    target: null,
    run: () => router.lookup({ woonplaats: "Amsterdm", naam: "Jansen" }, TODAY).status.length,
  },
  {
    name: "deriveMaatgevendeLetter",
    target: null,
    run: (i) => (deriveMaatgevendeLetter(names[i % 6] as string) ?? "").length,
  },
];

let sink = 0;

function timeRound(run: Case["run"], minNs: bigint): number {
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < minNs) {
    for (let i = 0; i < 500; i++) sink += run(iterations + i);
    iterations += 500;
    elapsed = process.hrtime.bigint() - start;
  }
  return (iterations * 1e9) / Number(elapsed);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

console.log(`# @incasso/rol-router benchmark\n`);
console.log(
  `Node ${process.version}, ${arch()}, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"})\n`,
);
console.log("## Throughput (warm, in-process)\n");
console.log("| case | ops/s (median of 5) | target | met |");
console.log("|---|---:|---:|:-:|");
for (const c of cases) {
  timeRound(c.run, 300_000_000n); // warm-up
  const rounds = Array.from({ length: 5 }, () => timeRound(c.run, 500_000_000n));
  const ops = median(rounds);
  const met = c.target === null ? "" : ops >= c.target ? "yes" : "no";
  console.log(`| ${c.name} | ${fmt(ops)} | ${c.target === null ? "" : fmt(c.target)} | ${met} |`);
}

const dist = join(here, "../dist/index.js");
const zodEntry = createRequire(join(here, "../package.json"))
  .resolve("zod")
  .replace(/index\.c?js$/, "index.js");
console.log("\n## Cold import and heap (fresh node process, built package)\n");
if (!existsSync(dist)) {
  console.log("dist/index.js not found: run `pnpm --filter @incasso/rol-router build` first.");
} else {
  // A child measures: time to import, time to the first lookup (builds the place index), and heap
  // used after a forced GC, each relative to a process that has only imported zod.
  const probe = `
    const { performance } = await import("node:perf_hooks");
    globalThis.gc(); const h0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const m = await import(${JSON.stringify(dist)});
    const t1 = performance.now();

    globalThis.gc(); const h1 = process.memoryUsage().heapUsed;
    m.lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2026-11-21" });
    const t2 = performance.now();
    globalThis.gc(); const h2 = process.memoryUsage().heapUsed;
    console.log(JSON.stringify({ importMs: t1 - t0, firstLookupMs: t2 - t1, importHeap: h1 - h0, afterLookupHeap: h2 - h0 }));
  `;
  const zodOnly = `
    const { performance } = await import("node:perf_hooks");
    const t0 = performance.now();
    await import(${JSON.stringify(zodEntry)});
    console.log(JSON.stringify({ zodMs: performance.now() - t0 }));
  `;
  const zodRuns = Array.from({ length: 5 }, () =>
    JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", zodOnly], { encoding: "utf8" })),
  );
  const runs = Array.from({ length: 5 }, () =>
    JSON.parse(
      execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", probe], {
        encoding: "utf8",
      }),
    ),
  );
  const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
  const importMs = median(runs.map((r) => r.importMs));
  const firstMs = median(runs.map((r) => r.firstLookupMs));
  const heap = median(runs.map((r) => r.importHeap));
  const heapAfter = median(runs.map((r) => r.afterLookupHeap));
  const zodMs = median(zodRuns.map((r) => r.zodMs));
  console.log("| measure | median of 5 | target | met |");
  console.log("|---|---:|---:|:-:|");
  console.log(
    `| cold import of dist/index.js (incl. zod) | ${importMs.toFixed(1)} ms | 150 ms | ${importMs < 150 ? "yes" : "no"} |`,
  );
  console.log(`| of which zod alone (separate fresh processes) | ${zodMs.toFixed(1)} ms | | |`);
  console.log(`| first lookup (builds the place index) | ${firstMs.toFixed(1)} ms | | |`);
  console.log(
    `| heap after import (incl. zod) | ${mb(heap)} MB | 15 MB | ${heap < 15 * 2 ** 20 ? "yes" : "no"} |`,
  );
  console.log(
    `| heap after first lookup | ${mb(heapAfter)} MB | 15 MB | ${heapAfter < 15 * 2 ** 20 ? "yes" : "no"} |`,
  );
}
if (sink === 42) console.log("");
