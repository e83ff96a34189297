import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@incasso/store-sql";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { startNodeHost } from "./node-host.js";

// Issue 33 item 5: examples/agency-plugin, started as a newcomer starts it (after the workspace
// build), serves a plugin's route, order rules, table and tokens; with Redis, two processes of it
// count one global rate limit. The plugin's table (its migration) and everything else run on a
// data directory, and on PostgreSQL when TEST_DATABASE_URL is set (a database of its own).

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = join(root, "examples", "agency-plugin", "server.mjs");
const SECRET = "agency-token-secret-for-the-example-test";
const today = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());

const cli = cliProcesses();
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  cli.killAll("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await newDataDir("incasso-agency-");
  dirs.push(dir);
  return dir;
}

/** Starts the example and resolves with the base URL it prints once listening; REDIS_URL is the test's. */
const startHost = (env: Record<string, string>) =>
  startNodeHost(script, {
    cwd: root,
    env: { PORT: "0", AGENCY_TOKEN_SECRET: SECRET, ...env },
    omit: ["REDIS_URL"],
    children,
  });

/** Where a process of the example stores: its environment and the CLI's flags for the same store. */
interface StoreTarget {
  env: Record<string, string>;
  cli: string[];
  drop(): Promise<void>;
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const stores: { name: string; make: () => Promise<StoreTarget | string> }[] = [
  {
    name: "a data directory (PGlite)",
    make: async () => {
      const dir = await dataDir();
      return { env: { INCASSO_DATA_DIR: dir }, cli: ["--data-dir", dir], drop: async () => {} };
    },
  },
  {
    name: "PostgreSQL",
    make: async () => {
      if (!databaseUrl) return "TEST_DATABASE_URL is not set (.ci/run sets it when PostgreSQL is there)";
      const database = `incasso_agency_${randomBytes(5).toString("hex")}`;
      const admin = await openStore({ databaseUrl, migrate: false });
      await admin.database.query(`CREATE DATABASE ${database}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${database}`;
      return {
        env: { DATABASE_URL: url.toString() },
        cli: ["--database-url", url.toString()],
        drop: async () => {
          await admin.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
          await admin.close();
        },
      };
    },
  },
];

async function createKey(store: string[], organisation: string): Promise<string> {
  const created = await cli.run([
    "keys",
    "create",
    "--organisation",
    organisation,
    "--mode",
    "live",
    "--json",
    ...store,
  ]);
  expect(created.code).toBe(0);
  return (JSON.parse(created.out) as { key: string }).key;
}

async function issueToken(url: string, key: string): Promise<string> {
  const res = await fetch(`${url}/agency/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { token: string; key_id: string };
  expect(body.token).toMatch(/^agt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(body.key_id).toMatch(/^tok_[0-9a-f]{24}$/);
  return body.token;
}

function order(reference: string, invoiceNumber: string, amountCents: number) {
  return {
    type: "pre-incasso",
    reference,
    debtors: [
      {
        type: "individual",
        first_name: "Jan",
        last_name: "Jansen",
        customer_number: `${reference}-K`,
        address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: invoiceNumber, invoice_date: today, due_date: today, amount_cents: amountCents },
    ],
  };
}

/** Whether something listens on the Redis URL's host and port; the reason when not. */
function redisUnreachable(url: string | undefined): Promise<string | undefined> {
  if (!url) return Promise.resolve("TEST_REDIS_URL is not set (.ci/run sets it when redis-server is there)");
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    socket.once("connect", () => {
      socket.end();
      resolve(undefined);
    });
    socket.once("error", (error) => resolve(`Redis at ${url} is unreachable: ${error.message}`));
  });
}

/** The first test's run on one store: the example's route, rules, table and tokens. */
async function placesOrders(target: StoreTarget): Promise<void> {
  const host = await startHost(target.env);
  expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  const key = await createKey(target.cli, `Agency ${Date.now()}`);
  const token = await issueToken(host.url, key);

  // The route, its code and the scheme are in the OpenAPI document.
  const document = (await (await fetch(`${host.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
    components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
  };
  expect(document.paths["/agency/tokens"]?.post?.security).toEqual([{ agencyToken: [] }, { bearerAuth: [] }]);
  expect(Object.keys(document.paths["/agency/references/{reference}"] ?? {})).toEqual(["get"]);
  expect(document.components.securitySchemes.agencyToken).toMatchObject({ type: "http", scheme: "bearer" });
  expect(JSON.stringify(document)).toContain("amount_below_minimum");

  // Nobody, and a token with a broken signature, get the API's 401.
  const nobody = await fetch(`${host.url}/agency/references/R1`);
  expect(nobody.status).toBe(401);
  expect(nobody.headers.get("content-type")).toBe("application/problem+json");
  const forged = await fetch(`${host.url}/agency/references/R1`, {
    headers: { authorization: `Bearer ${token.slice(0, -2)}xx` },
  });
  expect(forged.status).toBe(401);

  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const small = await fetch(`${host.url}/orders`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": "small-1" },
    body: JSON.stringify(order("AG-SMALL", "AG-F0", 2499)),
  });
  expect(small.status).toBe(422);
  expect(await small.json()).toMatchObject({
    status: 422,
    code: "amount_below_minimum",
    detail: "Invoice AG-F0 is under € 25; the agency does not collect it.",
  });

  const first = await fetch(`${host.url}/orders`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": "first-1" },
    body: JSON.stringify(order("AG-1", "AG-F1", 2500)),
  });
  expect(first.status).toBe(201);
  const placed = (await first.json()) as { id: string; warnings: { code: string }[] };
  expect(placed.warnings.map((w) => w.code)).not.toContain("reference_sent_before");

  // The handler writes to the plugin's table after the answer; the route reads it.
  let noted: { reference: string; orders: { id: string; total_amount_cents: number; mode: string }[] } = {
    reference: "",
    orders: [],
  };
  for (let i = 0; i < 100 && noted.orders.length === 0; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`${host.url}/agency/references/AG-1`, { headers });
    expect(res.status).toBe(200);
    noted = (await res.json()) as typeof noted;
  }
  expect(noted).toMatchObject({
    reference: "AG-1",
    orders: [{ id: placed.id, total_amount_cents: 2500, mode: "live" }],
  });

  const again = await fetch(`${host.url}/orders`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": "again-1" },
    body: JSON.stringify(order("AG-1", "AG-F2", 5000)),
  });
  expect(again.status).toBe(201);
  const second = (await again.json()) as { warnings: { code: string; message: string }[] };
  expect(second.warnings).toContainEqual({
    code: "reference_sent_before",
    message: "Referentie AG-1 is eerder ingediend.",
    invoice_number: null,
  });

  host.child.kill("SIGTERM");
  await new Promise((resolve) => host.child.once("exit", resolve));
  expect(host.child.exitCode).toBe(0);
}

describe("examples/agency-plugin, started as its own process", () => {
  it.for(stores)(
    "on $name: issues tokens on a route of its own, refuses claims under € 25 with its own code, notes placed orders in its table and warns on a reference sent before",
    {
      timeout: 120_000,
    },
    async (store, ctx) => {
      const target = await store.make();
      if (typeof target === "string") return ctx.skip(target);
      try {
        await placesOrders(target);
      } finally {
        await target.drop();
      }
    },
  );

  it("counts one rate limit across two processes on one Redis: exactly the limit succeeds, the rest get 429", {
    timeout: 120_000,
  }, async (ctx) => {
    const redisUrl = process.env.TEST_REDIS_URL;
    const reason = await redisUnreachable(redisUrl);
    if (reason !== undefined) return ctx.skip(reason);
    const LIMIT = 5;
    const env = { REDIS_URL: redisUrl as string, AGENCY_PER_MINUTE: String(LIMIT) };
    // Two processes with stores of their own: only Redis is shared.
    const dirA = await dataDir();
    const [a, b] = await Promise.all([
      startHost({ ...env, INCASSO_DATA_DIR: dirA }),
      startHost({ ...env, INCASSO_DATA_DIR: await dataDir() }),
    ]);
    const token = await issueToken(
      a.url,
      await createKey(["--data-dir", dirA], `Agency Redis ${Date.now()}`),
    );

    // The windows are minutes of the clock; start early in one, so all requests fall in it.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));

    const answers: { host: string; status: number; remaining: string | null }[] = [];
    for (let i = 0; i < 12; i++) {
      const host = i % 2 === 0 ? a : b;
      const res = await fetch(`${host.url}/agency/references/R`, {
        headers: { authorization: `Bearer ${token}` },
      });
      answers.push({
        host: host === a ? "a" : "b",
        status: res.status,
        remaining: res.headers.get("ratelimit-remaining"),
      });
    }
    expect(answers.map((x) => x.status)).toEqual([
      200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429,
    ]);
    expect(answers.slice(0, LIMIT).map((x) => x.remaining)).toEqual(["4", "3", "2", "1", "0"]);
    // Process b answered 429 after only two successes of its own: it counted a's hits too.
    expect(answers.filter((x) => x.host === "b").map((x) => x.status)).toEqual([
      200, 200, 429, 429, 429, 429,
    ]);

    for (const host of [a, b]) host.child.kill("SIGTERM");
    await Promise.all([a, b].map((h) => new Promise((resolve) => h.child.once("exit", resolve))));
    expect([a.child.exitCode, b.child.exitCode]).toEqual([0, 0]);
  });
});
