// Webhook deliveries per second to a local receiver, with one and with two `incasso worker`
// processes on PostgreSQL, and the count of duplicate attempts (target: >= 500/s with one worker,
// zero duplicates). Run: pnpm exec tsx packages/app/bench/webhooks.bench.ts
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
// a throwaway database is created and dropped. BENCH_CONCURRENCY sets each worker's --concurrency (64).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { arch, cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { newId } from "../../core/src/index.js";
import { openStore, type SqlStore } from "../../store-sql/src/index.js";

const WARMUP = 500;
const EVENTS = 5000;
const ROUNDS = 3;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const base =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const data = {
  order_id: "ord_0123456789abcdef",
  case_number: "2026-000123",
  reference: "INV-42",
  case_event: "case_payments",
};

// The receiver: counts every request per event id and answers 204 at once.
const counts = new Map<string, number>();
let received = 0;
let waiter: { target: number; resolve: () => void } | undefined;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    received++;
    res.writeHead(204).end();
    if (waiter && received >= waiter.target) {
      waiter.resolve();
      waiter = undefined;
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
receiver.keepAliveTimeout = 30_000;
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = `incasso_bench_${randomBytes(4).toString("hex")}`;
const admin = await openStore({ databaseUrl: base, migrate: false });
await admin.database.query(`CREATE DATABASE ${database}`);
const u = new URL(base);
u.pathname = `/${database}`;
const databaseUrl = u.toString();
const workers: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      cli,
      "worker",
      "--database-url",
      databaseUrl,
      "--allow-private-webhook-targets",
      "--concurrency",
      String(CONCURRENCY),
      "--poll-interval-ms",
      "20",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  workers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (c: Buffer) => {
      if (c.toString().includes("delivering webhooks")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function enqueue(store: SqlStore, organisationId: string, n: number): Promise<void> {
  await store.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await tx.outbox.enqueue({ organisationId, type: "case.updated", data });
  });
}

function until(target: number): Promise<void> {
  if (received >= target) return Promise.resolve();
  return new Promise((resolve) => {
    waiter = { target, resolve };
  });
}

const rows: string[] = [];
let store: SqlStore | undefined;
try {
  store = await openStore({ databaseUrl });
  for (const workerCount of [1, 2]) {
    const { organisation } = await store.organisations.ensure({
      id: newId("org"),
      name: `Bench ${workerCount}`,
      creditorName: "Bench BV",
      now: new Date(),
    });
    await store.webhookEndpoints.set({
      organisationId: organisation.id,
      url: receiverUrl,
      secret: "whsec_benchmark_secret_value",
      now: new Date(),
    });
    const started = await Promise.all(Array.from({ length: workerCount }, () => startWorker()));
    // Warm-up: connections, JIT, pools.
    const warm = received;
    await enqueue(store, organisation.id, WARMUP);
    await until(warm + WARMUP);
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = received;
      await enqueue(store, organisation.id, EVENTS);
      const t0 = performance.now(); // the events became visible when the transaction committed
      await until(before + EVENTS);
      rates.push(EVENTS / ((performance.now() - t0) / 1000));
    }
    for (const w of started) {
      const exited = new Promise((r) => w.once("exit", r));
      w.kill("SIGTERM");
      await exited;
    }
    const { rows: attempts } = await store.database.query<{ total: string; events: string; retried: string }>(
      `SELECT count(*) AS total, count(DISTINCT a.event_id) AS events, count(*) FILTER (WHERE a.attempt > 1) AS retried
       FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id WHERE e.organisation_id = $1`,
      [organisation.id],
    );
    const a = attempts[0] ?? { total: "0", events: "0", retried: "0" };
    const ids = [...counts.entries()];
    const duplicateDeliveries = ids.reduce((sum, [, n]) => sum + (n - 1), 0);
    const sorted = [...rates].sort((x, y) => x - y);
    rows.push(
      `| ${workerCount} | ${ROUNDS} × ${EVENTS} | ${Math.round(sorted[sorted.length - 1] ?? 0)} | ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)} | ${a.total} | ${Number(a.total) - Number(a.events)} | ${duplicateDeliveries} |`,
    );
    counts.clear();
  }
  console.log(
    `webhook delivery on PostgreSQL, worker concurrency ${CONCURRENCY}, ${cpus().length} cores, Node ${process.version}, ${arch()}\n`,
  );
  console.log(
    "| workers | events | best deliveries/s | median deliveries/s | attempts recorded | duplicate attempts | duplicate deliveries |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
} finally {
  for (const w of workers) w.kill("SIGKILL");
  await store?.close();
  await admin.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.close();
  receiver.closeAllConnections();
  receiver.close();
}
