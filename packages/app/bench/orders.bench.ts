// Orders per second and latency of POST /orders (3 invoices, no attachment; and one 1 MB PDF) at
// concurrency 16 with the key's limits raised, and GET /orders page latency with 100,000 stored
// orders at the first and at a deep page; on embedded PGlite and on PostgreSQL in one run.
// In-process (api.fetch): the API's own cost without a network stack. No letter runner runs in
// this process, as in a deployment whose 14-day letters are made by `incasso worker`: a pre-incasso
// order records its letter job and is answered (decision case-system-wik-letter-jobs); what the
// letters cost is measured by letter-jobs.bench.ts.
// Run: pnpm exec tsx packages/app/bench/orders.bench.ts
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
// BENCH_STORES=postgres (or pglite) runs one store only; BENCH_PLAIN_ONLY=1 skips the PDF and list
// cases (for quick comparisons of the order path). BENCH_POOL sets the PostgreSQL pool size (default the store's, 10).
// BENCH_ROUNDS (default 3) sets how many times each order type is measured: the rounds alternate which
// type goes first, and each type's rate and latencies are taken over all its rounds together.

import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { createBuiltInCaseSystem } from "../../case-system/src/index.js";
import { issueApiKey } from "../../core/src/index.js";
import { makeTextPdf } from "../../pdf-guard/src/internal/testing/fixtures.js";
import { getPdfEngine } from "../../pdf-guard/src/node.js";
import { createApi } from "../../server/src/index.js";
import { openStore, type SqlStore } from "../../store-sql/src/index.js";
import { INCASSO_MIGRATIONS } from "../src/internal/incasso-migrations.js";
import { benchOrderBody } from "./bench-order.js";

const CONCURRENCY = 16;
const STORES = process.env.BENCH_STORES ?? "pglite,postgres";
const PLAIN_ONLY = process.env.BENCH_PLAIN_ONLY === "1";
// The store's default pool (10) unless BENCH_POOL says otherwise.
const POOL = process.env.BENCH_POOL === undefined ? undefined : Number(process.env.BENCH_POOL);
// 1,000 of each type to warm up (BENCH_WARMUP): each run starts on an empty schema, whose tables
// PostgreSQL's autovacuum analyses again and again while they are small (each analysis replans the
// prepared statements); after 200 the first measured round was still the slowest.
const PLAIN = { warmup: Number(process.env.BENCH_WARMUP ?? 1000), count: 2000 };
// One 2,000-order phase's p99 moved by up to a factor of two between runs on the 2-core benchmark
// machine, and the phase measured first was the slower one whichever type it held: each type is
// measured in several rounds, first in every other one, and its figures are over all its rounds.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const PDF = { warmup: 16, count: 96 };
const LIST = { warmup: 50, count: 500, stored: 100_000 };

type Api = ReturnType<typeof createApi>;

interface Phase {
  samples: number[];
  wallMs: number;
  outcomes: Map<string, number>;
}

function stats(phases: Phase[]) {
  const samples = phases.flatMap((p) => p.samples);
  const wallMs = phases.reduce((sum, p) => sum + p.wallMs, 0);
  const s = samples.sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  const outcomes = new Map<string, number>();
  for (const p of phases) for (const [k, n] of p.outcomes) outcomes.set(k, (outcomes.get(k) ?? 0) + n);
  const other = [...outcomes].filter(([k]) => k !== "ok").map(([k, n]) => `${n}× ${k}`);
  // Each round's own p99 beside the pooled one, so a reader sees how much one phase moves.
  const p99s = phases.map((p) => {
    const one = [...p.samples].sort((a, b) => a - b);
    return one[Math.min(one.length - 1, Math.floor(0.99 * one.length))] ?? 0;
  });
  return { perSecond: (samples.length / wallMs) * 1000, p50: at(0.5), p99: at(0.99), p99s, other };
}

/**
 * Sends `count` requests with `concurrency` in flight; returns the latencies and the rate of the
 * expected answers, and counts any other answer by status and code (reported beside the numbers).
 */
async function load(
  api: Api,
  make: (i: number) => Request,
  count: number,
  concurrency: number,
  expect: number,
): Promise<Phase> {
  const samples: number[] = [];
  const outcomes = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const req = make(i);
        const t = performance.now();
        const res = await api.fetch(req);
        const text = await res.text();
        const ms = performance.now() - t;
        let outcome = "ok";
        if (res.status !== expect) {
          const problem = JSON.parse(text) as { code?: string; errors?: { code: string }[] };
          outcome = `${res.status} ${problem.code ?? ""}${problem.errors?.[0] ? ` (${problem.errors[0].code})` : ""}`;
        } else samples.push(ms);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }),
  );
  return { samples, wallMs: performance.now() - started, outcomes };
}

// A pre-incasso order makes the built-in case system record the job of its statutory 14-day letter
// (made later by a letter runner, not running here); an incasso order against a business debtor
// needs no letter. Both are measured.
function orderBody(
  tag: string,
  i: number,
  attachment?: string,
  type: "pre-incasso" | "incasso" = "pre-incasso",
): string {
  return benchOrderBody({
    type,
    reference: `B-${tag}-${i}`,
    customerNumber: `${tag}-${i}`,
    n: i,
    ...(attachment ? { attachment } : {}),
  });
}

/** 100,000 orders of one organisation and key, written straight into the table. */
async function seedOrders(store: SqlStore, organisationId: string, keyId: string, n: number) {
  await store.database.query(
    `INSERT INTO orders (id, organisation_id, key_id, mode, type, reference, case_number, case_new, creditor_id,
       debtors, customer_numbers, invoice_count, total_amount_cents, metadata, udf_fields, warnings, created_at)
     SELECT 'ord_' || lpad(to_hex(g), 16, '0'), $1, $2, 'live', 'pre-incasso', 'S-' || g, '2026-' || lpad(g::text, 6, '0'),
       true, NULL, '[{"name":"Voorbeeld B.V.","customer_number":"K-1"}]', ARRAY['K-' || g], 3, 150050, '{}', '{}', '[]',
       timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second'
     FROM generate_series(1, $3) AS g`,
    [organisationId, keyId, n],
  );
  await store.database.query("ANALYZE orders");
}

async function run(name: string, store: SqlStore, pdf: string) {
  const silent = { info() {}, warn() {}, error: console.error };
  const api = createApi({
    store,
    caseSystem: createBuiltInCaseSystem({ store }),
    // PDFs in worker threads, as createIncasso() runs them.
    pdfEngine: getPdfEngine(),
    logger: silent,
    apiRateLimit: { perMinute: 1_000_000 },
  });
  const tag = randomBytes(3).toString("hex");
  const issued = await issueApiKey(store, {
    organisation: `Bench ${tag}`,
    mode: "live",
    perMinute: 1_000_000,
    perDay: 1_000_000,
  });
  const post = (body: (i: number) => string) => (i: number) =>
    new Request("http://x/api/v1/orders", {
      method: "POST",
      headers: { authorization: `Bearer ${issued.key}`, "content-type": "application/json" },
      body: body(i),
    });
  // Both types warmed up before either is measured.
  const pre = (round: string) => post((i) => orderBody(`${tag}${round}`, i));
  const inc = (round: string) => post((i) => orderBody(`${tag}${round}i`, i, undefined, "incasso"));
  await load(api, pre("w"), PLAIN.warmup, CONCURRENCY, 201);
  await load(api, inc("w"), PLAIN.warmup, CONCURRENCY, 201);
  const plainPhases: Phase[] = [];
  const incassoPhases: Phase[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measurePre = async () =>
      plainPhases.push(await load(api, pre(`r${round}`), PLAIN.count, CONCURRENCY, 201));
    const measureInc = async () =>
      incassoPhases.push(await load(api, inc(`r${round}`), PLAIN.count, CONCURRENCY, 201));
    if (round % 2 === 0) {
      await measurePre();
      await measureInc();
    } else {
      await measureInc();
      await measurePre();
    }
  }
  const plain = stats(plainPhases);
  const incasso = stats(incassoPhases);
  if (PLAIN_ONLY) return { name, plain, incasso };
  await load(
    api,
    post((i) => orderBody(`${tag}pw`, i, pdf)),
    PDF.warmup,
    CONCURRENCY,
    201,
  );
  const withPdf = stats([
    await load(
      api,
      post((i) => orderBody(`${tag}p`, i, pdf)),
      PDF.count,
      CONCURRENCY,
      201,
    ),
  ]);

  // The listing: a fresh organisation with 100,000 orders, read by a key that sees the organisation.
  const lister = await issueApiKey(store, {
    organisation: `Bench list ${tag}`,
    mode: "live",
    visibility: "organisation",
    perMinute: 1_000_000,
    perDay: 1_000_000,
  });
  await seedOrders(store, lister.record.organisationId, lister.record.id, LIST.stored);
  const get = (query: string) => () =>
    new Request(`http://x/api/v1/orders${query}`, { headers: { authorization: `Bearer ${lister.key}` } });
  // A cursor 90,000 orders deep, found by paging with limit 100.
  let cursor = "";
  for (let page = 0; page < 900; page++) {
    const res = await api.fetch(get(`?limit=100${cursor ? `&cursor=${cursor}` : ""}`)());
    cursor = ((await res.json()) as { next_cursor: string }).next_cursor;
  }
  await load(api, get(""), LIST.warmup, 1, 200);
  const first = stats([await load(api, get(""), LIST.count, 1, 200)]);
  const deep = stats([await load(api, get(`?cursor=${cursor}`), LIST.count, 1, 200)]);
  return { name, plain, incasso, withPdf, first, deep };
}

const pdfBytes = await makeTextPdf({
  pages: Array.from({ length: 20 }, (_, p) => [
    `Factuur F-1 pagina ${p + 1}`,
    "Totaal te betalen: EUR 1.250,00",
  ]),
  paddingBytes: 1_000_000 - 30_000,
});
const pdf = Buffer.from(pdfBytes).toString("base64");

const loadAtStart = loadavg()[0] ?? 0;
const rows: Awaited<ReturnType<typeof run>>[] = [];
if (STORES.includes("pglite")) {
  const pglite = await openStore({ migrations: INCASSO_MIGRATIONS });
  rows.push(await run("PGlite (embedded, in memory)", pglite, pdf));
  await pglite.close();
}

const url =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const schema = `bench_${randomBytes(4).toString("hex")}`;
try {
  if (!STORES.includes("postgres")) throw new Error("not asked for (BENCH_STORES)");
  const pg = await openStore({
    databaseUrl: url,
    schema,
    migrations: INCASSO_MIGRATIONS,
    ...(POOL ? { maxConnections: POOL } : {}),
  });
  try {
    rows.push(await run("PostgreSQL 127.0.0.1", pg, pdf));
  } finally {
    await pg.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await pg.close();
  }
} catch (error) {
  console.error(`PostgreSQL skipped: ${(error as Error).message}`);
}

const f = (n: number) => n.toFixed(1);
const g = (n: number) => n.toFixed(2);
const o = (n: number | undefined, d: (n: number) => string) => (n === undefined ? "–" : d(n));
console.log(
  `\nPOST /orders at concurrency ${CONCURRENCY}, in-process api.fetch, live key with raised limits; ` +
    `pre-incasso and incasso orders (3 invoices, no attachment; no letter runner in the process: pre-incasso orders record their letter jobs), ` +
    `${PLAIN.warmup} of each to warm up, then ${ROUNDS} rounds of ${PLAIN.count} of each type, the first type alternating; ` +
    `rate and latencies over all rounds of a type. ${PDF.count} pre-incasso orders with one ` +
    `${pdfBytes.byteLength}-byte PDF after ${PDF.warmup} warm-up. GET /orders: ${LIST.count} sequential requests ` +
    `(limit 25) over ${LIST.stored} stored orders after ${LIST.warmup} warm-up. PostgreSQL pool ${POOL ?? "10 (default)"}. ` +
    `Load average (1 min) ${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at end.\n`,
);
console.log(
  "| store | pre-incasso orders/s (no attachment) | p50 ms | p99 ms | incasso orders/s (no attachment) | p50 ms | p99 ms | orders/s (1 MB PDF) | p50 ms | p99 ms | GET /orders first page p50 ms | p99 ms | page 3,601 (90,000 deep) p50 ms | p99 ms |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
const notes: string[] = [];
for (const r of rows) {
  for (const [what, s] of [
    ["pre-incasso, no attachment", r.plain],
    ["incasso, no attachment", r.incasso],
    ["1 MB PDF", r.withPdf],
  ] as const) {
    if (s !== undefined && s.other.length > 0)
      notes.push(`${r.name}, ${what}: not 201: ${s.other.join(", ")} (excluded from the rate and latencies)`);
  }
  console.log(
    `| ${r.name} | ${Math.round(r.plain.perSecond)} | ${f(r.plain.p50)} | ${f(r.plain.p99)} | ${Math.round(r.incasso.perSecond)} | ${f(r.incasso.p50)} | ${f(r.incasso.p99)} | ${o(r.withPdf?.perSecond, f)} | ${o(r.withPdf?.p50, f)} | ${o(r.withPdf?.p99, f)} | ${o(r.first?.p50, g)} | ${o(r.first?.p99, g)} | ${o(r.deep?.p50, g)} | ${o(r.deep?.p99, g)} |`,
  );
}
for (const r of rows) {
  const p99s = (s: { p99s: number[] }) => s.p99s.map(f).join(", ");
  notes.push(`${r.name}, p99 ms of each round: pre-incasso ${p99s(r.plain)}; incasso ${p99s(r.incasso)}`);
}
for (const note of notes) console.log(`\n- ${note}`);
