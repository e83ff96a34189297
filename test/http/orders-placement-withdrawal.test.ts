import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import {
  issueApiKey,
  type OrderRecord,
  PLACEMENT_GRACE_MS,
  reconcilePlacements,
  StoreUnavailableError,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { business, count, json, orderBody, ordersApi } from "./orders-fixtures.js";

// Issue 29 item 2, "no case placement without its order, on any error between the steps", for an
// order without an Idempotency-Key, whose client's retry is a new order (decision
// orders-engine-placement-intents). The database path fails between the placement and the order
// row; the placement is withdrawn at once when the database lets it, else by the placement
// reconciler, and the client's retry without a key makes exactly one order. On PGlite, and on
// PostgreSQL when TEST_DATABASE_URL is set (a schema of its own, dropped after).
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `placement_withdrawal_${randomBytes(6).toString("hex")}`;
      return { store: await openCaseSystemStore({ databaseUrl: url, schema }), schema };
    },
  });
}

const silent = { warn() {}, error() {} };
const outage = () => new StoreUnavailableError("The database is out of reach: query_wait_timeout");

describe.each(targets)("a placement without its order row on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  let api: ReturnType<typeof ordersApi>["api"];
  let cases: ReturnType<typeof ordersApi>["cases"];
  let live: string;
  // What fails next: the order row's transaction, and (an outage that lasts) the claim that would
  // withdraw the placement at once.
  const fail = { row: false, claim: false, answer: false };

  beforeAll(async () => {
    ({ store, schema } = await target.open());
    const base = ordersApi(store);
    cases = base.cases;
    // The store as the engine sees it: the order row (written in one statement with the end of
    // its placement intent) meets an unusable database path once, after the placement, and while
    // `fail.claim` is set so does the claim that would withdraw the placement at once.
    const failing: SqlStore = Object.create(store, {
      placementIntents: {
        value: {
          ...store.placementIntents,
          async endWithOrder(order: OrderRecord) {
            if (fail.answer) {
              // Stored, and the answer lost on the way back.
              fail.answer = false;
              await store.placementIntents.endWithOrder(order);
              throw outage();
            }
            if (!fail.row) return store.placementIntents.endWithOrder(order);
            fail.row = false;
            return Promise.reject(outage());
          },
          claim(orderId: string, at: Date) {
            if (fail.claim) return Promise.reject(outage());
            return store.placementIntents.claim(orderId, at);
          },
        },
      },
    });
    api = ordersApi(failing, { caseSystem: cases }).api;
    live = (await issueApiKey(store, { organisation: "Zonder Sleutel BV", mode: "live", perMinute: 1000 }))
      .key;
  });
  afterAll(async () => {
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });
  beforeEach(() => {
    fail.row = false;
    fail.claim = false;
    fail.answer = false;
  });

  const totals = async (customerNumber: string) => ({
    orders: await count(store, "SELECT count(*) AS n FROM orders WHERE $1 = ANY (customer_numbers)", [
      customerNumber,
    ]),
    placements: await count(
      store,
      "SELECT count(DISTINCT order_id) AS n FROM case_debtors WHERE customer_number = $1",
      [customerNumber],
    ),
    cases: await count(
      store,
      "SELECT count(DISTINCT case_number) AS n FROM case_debtors WHERE customer_number = $1",
      [customerNumber],
    ),
  });
  const orphans = () =>
    count(
      store,
      "SELECT count(*) AS n FROM case_orders co WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = co.order_id)",
    );
  const emptyCases = () =>
    count(
      store,
      "SELECT count(*) AS n FROM cases c WHERE NOT EXISTS (SELECT 1 FROM case_orders co WHERE co.case_number = c.case_number)",
    );
  const intents = () => count(store, "SELECT count(*) AS n FROM placement_intents");
  const post = (customerNumber: string) =>
    api.fetch(
      new Request("http://x/api/v1/orders", json(live, orderBody({ debtors: [business(customerNumber)] }))),
    );
  const later = () => new Date(Date.now() + PLACEMENT_GRACE_MS + 60_000);

  it("the row fails once: 503 with Retry-After, the placement is withdrawn at once, and the retry without a key is the one order, on a new case", async () => {
    fail.row = true;
    const refused = await post("NOKEY-1");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(await totals("NOKEY-1")).toEqual({ orders: 0, placements: 0, cases: 0 });
    expect(await orphans()).toBe(0);
    expect(await emptyCases()).toBe(0);
    expect(await intents()).toBe(0);

    const retry = await post("NOKEY-1");
    expect(retry.status).toBe(201);
    const order = (await retry.json()) as { case: { new: boolean }; warnings: { code: string }[] };
    expect(order.case.new).toBe(true);
    expect(order.warnings).toEqual([]);
    expect(await totals("NOKEY-1")).toEqual({ orders: 1, placements: 1, cases: 1 });
    expect(await intents()).toBe(0);
  });

  it("the outage lasts past the row: the placement stands until the reconciler withdraws it; the retry made in between is the one order and keeps its case", async () => {
    fail.row = true;
    fail.claim = true;
    const refused = await post("NOKEY-2");
    expect(refused.status).toBe(503);
    expect(await totals("NOKEY-2")).toEqual({ orders: 0, placements: 1, cases: 1 });
    expect(await intents()).toBe(1);
    fail.claim = false;

    // The client's retry comes first: it joins the case the failed attempt opened.
    const retry = await post("NOKEY-2");
    expect(retry.status).toBe(201);
    const order = (await retry.json()) as { id: string; case: { case_number: string; new: boolean } };
    expect(order.case.new).toBe(false);

    // Within the grace period nothing is undone; after it the failed attempt is.
    expect(await reconcilePlacements({ store, caseSystem: cases, logger: silent })).toEqual({
      withdrawn: 0,
      failed: 0,
      unsupported: 0,
    });
    expect(await reconcilePlacements({ store, caseSystem: cases, logger: silent, now: later })).toEqual({
      withdrawn: 1,
      failed: 0,
      unsupported: 0,
    });
    expect(await totals("NOKEY-2")).toEqual({ orders: 1, placements: 1, cases: 1 });
    expect(await orphans()).toBe(0);
    expect(await intents()).toBe(0);
    // What stays on the case is the stored order's: its debtor and its one invoice.
    const onCase = await count(
      store,
      "SELECT count(*) AS n FROM case_invoices WHERE case_number = $1 AND order_id <> $2",
      [order.case.case_number, order.id],
    );
    expect(onCase).toBe(0);
    const detail = await cases.getCase({ caseNumber: order.case.case_number });
    expect(detail?.caseNumber).toBe(order.case.case_number);
  });

  it("withdrawn before the retry: the case the failed attempt opened is gone, and the retry opens a new one", async () => {
    fail.row = true;
    fail.claim = true;
    expect((await post("NOKEY-3")).status).toBe(503);
    fail.claim = false;
    expect(await reconcilePlacements({ store, caseSystem: cases, logger: silent, now: later })).toEqual({
      withdrawn: 1,
      failed: 0,
      unsupported: 0,
    });
    expect(await totals("NOKEY-3")).toEqual({ orders: 0, placements: 0, cases: 0 });
    expect(await emptyCases()).toBe(0);
    // A repeat of the withdrawal changes nothing.
    await cases.withdrawPlacement({ orderId: "ord_0000000000000000", organisationId: "org_none" });

    const retry = await post("NOKEY-3");
    expect(retry.status).toBe(201);
    expect(((await retry.json()) as { case: { new: boolean } }).case.new).toBe(true);
    expect(await totals("NOKEY-3")).toEqual({ orders: 1, placements: 1, cases: 1 });
  });

  it("the row is stored and its answer lost: 503, and nothing is withdrawn under the stored order", async () => {
    fail.answer = true;
    const refused = await post("NOKEY-5");
    expect(refused.status).toBe(503);
    expect(await totals("NOKEY-5")).toEqual({ orders: 1, placements: 1, cases: 1 });
    expect(await intents()).toBe(0);
    expect(await orphans()).toBe(0);
  });

  it("a stored order's placement is never withdrawn", async () => {
    expect((await post("NOKEY-4")).status).toBe(201);
    expect(await intents()).toBe(0);
    expect(await reconcilePlacements({ store, caseSystem: cases, logger: silent, now: later })).toEqual({
      withdrawn: 0,
      failed: 0,
      unsupported: 0,
    });
    expect(await totals("NOKEY-4")).toEqual({ orders: 1, placements: 1, cases: 1 });
  });
});
