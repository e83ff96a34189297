// Authenticated GET /ping per second, and what auth + rate limit + idempotency add to a POST, on
// embedded PGlite and on PostgreSQL in one run. In-process (api.fetch), so the numbers are the
// API's own cost without a network stack. Run: pnpm exec tsx packages/app/bench/storage.bench.ts
// One key is used throughout, so after the first request auth is answered by the 5-second key cache
// (docs/decisions/auth-key-cache.md). PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
import { randomBytes } from "node:crypto";
import { issueApiKey } from "../../core/src/index.js";
import {
  createApi,
  definePlugin,
  defineRoute,
  idempotency,
  json,
  ordersRateLimit,
  StoreRateLimiter,
} from "../../server/src/index.js";
import { openStore, type SqlStore } from "../../store-sql/src/index.js";

const WARMUP = 300;
const ROUNDS = 3000;

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  const total = samples.reduce((a, b) => a + b, 0);
  return { p50: at(0.5), p99: at(0.99), perSecond: (samples.length / total) * 1000 };
}

async function time(
  make: (i: number) => Request,
  api: { fetch(r: Request): Promise<Response> },
  expect: number,
) {
  for (let i = 0; i < WARMUP; i++) await (await api.fetch(make(-i - 1))).arrayBuffer();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const req = make(i);
    const t = performance.now();
    const res = await api.fetch(req);
    await res.arrayBuffer();
    samples.push(performance.now() - t);
    if (res.status !== expect) throw new Error(`status ${res.status}, expected ${expect}`);
  }
  return stats(samples);
}

const body = JSON.stringify({ reference: "R-1", type: "incasso", note: "x".repeat(200) });

function benchPlugin(store: SqlStore) {
  const limiter = new StoreRateLimiter(store);
  const handle = () => json({ ok: true }, { status: 201 });
  const request = { body: undefined as never };
  void request;
  return definePlugin({
    name: "bench",
    routes: [
      defineRoute({
        method: "POST",
        path: "/bench/plain",
        operationId: "benchPlain",
        summary: "bare POST",
        auth: "none",
        responses: { 201: { description: "ok" } },
        handle,
      }),
      defineRoute({
        method: "POST",
        path: "/bench/protected",
        operationId: "benchProtected",
        summary: "POST with auth, rate limit and idempotency",
        auth: "required",
        responses: { 201: { description: "ok" } },
        guards: [ordersRateLimit({ limiter })],
        interceptors: [idempotency({ store })],
        handle,
      }),
    ],
  });
}

async function run(name: string, store: SqlStore) {
  const api = createApi({
    store,
    orders: false,
    plugins: [benchPlugin(store)],
    logger: { info() {}, warn() {}, error: console.error },
  });
  const { key } = await issueApiKey(store, {
    organisation: `Bench ${randomBytes(4).toString("hex")}`,
    mode: "test",
    perMinute: 1_000_000,
    perDay: 1_000_000,
  });
  const auth = { authorization: `Bearer ${key}` };
  const pingAnon = await time(() => new Request("http://x/api/v1/ping"), api, 200);
  const pingAuth = await time(() => new Request("http://x/api/v1/ping", { headers: auth }), api, 200);
  const post = (path: string, headers: Record<string, string>) => (i: number) =>
    new Request(`http://x/api/v1${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...headers,
        "idempotency-key": `bench-${path}-${i}-${name}`,
      },
      body,
    });
  const plain = await time(post("/bench/plain", {}), api, 201);
  const guarded = await time(post("/bench/protected", auth), api, 201);
  return { name, pingAnon, pingAuth, plain, guarded };
}

const rows: Awaited<ReturnType<typeof run>>[] = [];
const pglite = await openStore();
rows.push(await run("PGlite (embedded, in memory)", pglite));
await pglite.close();

const url =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const schema = `bench_${randomBytes(4).toString("hex")}`;
try {
  const pg = await openStore({ databaseUrl: url, schema });
  try {
    rows.push(await run("PostgreSQL 127.0.0.1", pg));
  } finally {
    await pg.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await pg.close();
  }
} catch (error) {
  console.error(`PostgreSQL skipped: ${(error as Error).message}`);
}

const f = (n: number) => n.toFixed(3);
console.log(`\n${ROUNDS} sequential requests per case after ${WARMUP} warm-up, in-process api.fetch.\n`);
console.log(
  "| store | GET /ping anonymous req/s | GET /ping authenticated req/s | auth. ping p50 ms | bare POST p50 ms | POST with auth + rate limit + idempotency p50 ms | added at p50 ms | added at p99 ms |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${Math.round(r.pingAnon.perSecond)} | ${Math.round(r.pingAuth.perSecond)} | ${f(r.pingAuth.p50)} | ${f(r.plain.p50)} | ${f(r.guarded.p50)} | ${f(r.guarded.p50 - r.plain.p50)} | ${f(r.guarded.p99 - r.plain.p99)} |`,
  );
}
