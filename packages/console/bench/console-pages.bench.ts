// The console's case list and case page at 100,000 orders in PostgreSQL (issue 19: each under
// 100 ms at p50). One organisation with 100,000 live orders, each on its own case with a debtor,
// an invoice and a webhook event, written with generate_series; then, in-process (api.fetch, the
// session cookie of a logged-in operator), 200 requests of each page after 20 to warm up:
// the first page of the list, a search by a common and by a rare debtor name's start, by reference, by customer number, a status
// filter, a page deep in the list (keyset `na`), and a case page (random cases).
//
// Run: pnpm exec tsx packages/console/bench/console-pages.bench.ts
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
// a throwaway database is made beside it and dropped at the end. BENCH_ORDERS (100000), BENCH_RUNS (200).
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createIncasso } from "../../app/src/index.js";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;
const base =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const pg = createRequire(new URL("../../store-sql/package.json", import.meta.url))("pg") as {
  Client: new (options: {
    connectionString: string;
  }) => {
    connect(): Promise<void>;
    query(text: string): Promise<unknown>;
    end(): Promise<void>;
  };
};
const dbName = `incasso_console_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(base);
url.pathname = `/${dbName}`;

const operator = { id: "opr_bench000000001", name: "Bench", role: "admin" as const };
const incasso = await createIncasso(
  { databaseUrl: url.toString() },
  {
    logger: { info() {}, warn() {}, error: console.error },
    env: {},
    webhooks: false,
    letters: false,
    operatorEndpoint: false,
    secretsReport: false,
    operators: { login: async () => ({ ok: true, operator }), get: async () => operator },
  },
);
try {
  const key = await incasso.operations.createKey({ organisation: "Bench BV", mode: "live" });
  const db = incasso.store.database;
  const started = performance.now();
  const { rows } = await db.query<{ organisation_id: string }>(
    "SELECT organisation_id FROM api_keys WHERE id = $1",
    [key.id],
  );
  const org = rows[0]?.organisation_id as string;
  const params = [org, key.id, ORDERS];
  // created_at one minute apart, newest last; case numbers 2026-000001 … in the same order.
  const series = "FROM generate_series(1, $3::int) AS g";
  const at = "(timestamptz '2026-01-01T00:00:00Z' + g * interval '1 minute')";
  const cn = "('2026-' || lpad(g::text, 6, '0'))";
  const oid = "('ord_' || lpad(to_hex(g), 16, '0'))";
  await db.query(
    `INSERT INTO orders (id, organisation_id, key_id, mode, type, reference, case_number, case_new, debtors,
       customer_numbers, invoice_count, total_amount_cents, metadata, udf_fields, warnings, created_at)
     SELECT ${oid}, $1, $2, 'live', 'incasso', 'REF-' || g, ${cn}, true, '[]', ARRAY['K-' || g], 1, 10000 + g,
       '{}', '{}', '[]', ${at} ${series}`,
    params,
  );
  await db.query(
    `INSERT INTO cases (case_number, organisation_id, creditor_name, opened_by_order_id, type, reference, title,
       status, open, created_at, updated_at)
     SELECT ${cn}, $1, 'Bench BV', ${oid}, 'incasso', 'REF-' || g, 'Factuur F-' || g,
       (ARRAY['Nieuw', 'In behandeling', 'Aangehouden', 'Gesloten'])[1 + g % 4], g % 4 <> 3, ${at}, ${at}
     ${series} WHERE $2::text IS NOT NULL`,
    params,
  );
  await db.query(
    `INSERT INTO case_orders (order_id, case_number, type, reference, title, added_at)
     SELECT ${oid}, ${cn}, 'incasso', 'REF-' || g, 'Factuur F-' || g, ${at} ${series} WHERE $1::text IS NOT NULL AND $2::text IS NOT NULL`,
    params,
  );
  // Debtor names from a small list of surnames, so a name search finds many cases.
  await db.query(
    `INSERT INTO case_debtors (order_id, position, case_number, organisation_id, type, name, company_name,
       customer_number, street, house_number, postal_code, city, country)
     SELECT ${oid}, 0, ${cn}, $1, 'business',
       (ARRAY['Jansen', 'de Vries', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder'])[1 + g % 8] || ' ' || g || ' B.V.',
       'Debiteur ' || g, 'K-' || g, 'Teststraat', '1', '9999ZZ', 'Testdorp', 'NL' ${series} WHERE $2::text IS NOT NULL`,
    params,
  );
  await db.query(
    `INSERT INTO case_invoices (order_id, position, case_number, invoice_number, invoice_date, due_date, amount_cents, added_at)
     SELECT ${oid}, 0, ${cn}, 'F-' || g, date '2025-12-01', date '2025-12-15', 10000 + g, ${at} ${series}
     WHERE $1::text IS NOT NULL AND $2::text IS NOT NULL`,
    params,
  );
  await db.query(
    `INSERT INTO webhook_events (id, organisation_id, type, payload, created_at, state, attempts, delivered_at)
     SELECT 'evt_' || lpad(to_hex(g), 16, '0'), $1, 'case.opened',
       json_build_object('type', 'case.opened', 'data', json_build_object('order_id', ${oid}, 'case_number', ${cn}))::text,
       ${at}, 'delivered', 1, ${at} ${series} WHERE $2::text IS NOT NULL`,
    params,
  );
  await db.query("ANALYZE");
  const seeded = performance.now() - started;

  const login = await incasso.api.fetch(
    new Request("http://bench/console/inloggen", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "credential=bench",
    }),
  );
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const deep = await incasso.api.fetch(new Request("http://bench/console/zaken", { headers: { cookie } }));
  const next = /rel="next" href="([^"]+)"/.exec(await deep.text())?.[1]?.replace(/&amp;/g, "&");
  const pages: [string, () => string][] = [
    ["case list, first page", () => "/console/zaken"],
    ["case list, next page (keyset)", () => next ?? "/console/zaken"],
    ["search: a debtor name's start shared by 12,500 cases", () => "/console/zaken?q=bakker"],
    [
      "search: a debtor name's start of one case",
      () =>
        `/console/zaken?q=${encodeURIComponent(`Smit ${8 * (1 + Math.floor(Math.random() * (ORDERS / 8 - 1))) + 4} B`)}`,
    ],
    ["search: reference", () => `/console/zaken?q=REF-${1 + Math.floor(Math.random() * ORDERS)}`],
    ["search: customer number", () => `/console/zaken?q=K-${1 + Math.floor(Math.random() * ORDERS)}`],
    ["filter: status Aangehouden", () => "/console/zaken?status=Aangehouden"],
    [
      "case page",
      () => `/console/zaken/2026-${String(1 + Math.floor(Math.random() * ORDERS)).padStart(6, "0")}`,
    ],
  ];
  console.log(
    `console pages, ${ORDERS} orders and cases on PostgreSQL (seeded in ${(seeded / 1000).toFixed(1)} s); load ${loadavg()[0]?.toFixed(2)}`,
  );
  console.log("| page | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|");
  for (const [name, path] of pages) {
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t = performance.now();
      const res = await incasso.api.fetch(new Request(`http://bench${path()}`, { headers: { cookie } }));
      await res.text();
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      if (i >= WARMUP) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) =>
      (times[Math.min(times.length - 1, Math.floor(p * times.length))] as number).toFixed(1);
    console.log(`| ${name} | ${q(0.5)} | ${q(0.95)} | ${q(1)} |`);
  }
} finally {
  await incasso.stop();
  // BENCH_KEEP=1 keeps the database to look at the plans (EXPLAIN) afterwards.
  if (process.env.BENCH_KEEP === "1") console.log(`kept database ${dbName}`);
  else await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin.end();
}
