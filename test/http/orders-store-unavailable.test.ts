import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey, type OrderRecord, StoreUnavailableError } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, count, json, orderBody, ordersApi } from "./orders-fixtures.js";

// Issue 29 item 2: the database path fails between the case placement and the order row (a
// pooler's "query_wait_timeout", a reset connection). The client is told 503 service_unavailable
// with Retry-After (decision store-unavailable-503), never a 500; the placement without its order
// row is completed by the retry with the same Idempotency-Key (same order id, the placement is
// idempotent on it: decision orders-engine-order-ids), so no case is left without its order and
// no second case is made.
let store: SqlStore;
let failNextInsert = false;
let api: ReturnType<typeof ordersApi>["api"];
let live: string;

beforeAll(async () => {
  store = await openCaseSystemStore();
  const { cases } = ordersApi(store);
  // The store as the engine sees it, whose order row (written in one statement with the end of its
  // placement intent) meets an unusable database path once.
  const failing: SqlStore = Object.create(store, {
    placementIntents: {
      value: {
        ...store.placementIntents,
        endWithOrder(order: OrderRecord) {
          if (!failNextInsert) return store.placementIntents.endWithOrder(order);
          failNextInsert = false;
          return Promise.reject(
            new StoreUnavailableError("The database is out of reach: query_wait_timeout"),
          );
        },
      },
    },
  });
  api = ordersApi(failing, { caseSystem: cases }).api;
  live = (await issueApiKey(store, { organisation: "Unavailable BV", mode: "live", perMinute: 1000 })).key;
});
afterAll(() => store.close());

const totals = async () => ({
  orders: await count(store, "SELECT count(*) AS n FROM orders"),
  placements: await count(store, "SELECT count(*) AS n FROM case_orders"),
  cases: await count(store, "SELECT count(*) AS n FROM cases"),
});

describe("the database path fails between the placement and the order row", () => {
  it("503 service_unavailable with Retry-After; the retry with the same Idempotency-Key stores the order on the same case", async () => {
    const body = orderBody({ debtors: [business("UNAV-1")] });
    const headers = { "idempotency-key": "unavailable-between-steps" };
    failNextInsert = true;
    const refused = await api.fetch(new Request("http://x/api/v1/orders", json(live, body, headers)));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 503, code: "service_unavailable" });
    // The placement stands without its row until the retry (or, without one, until the placement
    // reconciler withdraws it: orders-placement-withdrawal.test.ts).
    expect(await totals()).toEqual({ orders: 0, placements: 1, cases: 1 });
    expect(await count(store, "SELECT count(*) AS n FROM placement_intents")).toBe(1);

    const retry = await api.fetch(new Request("http://x/api/v1/orders", json(live, body, headers)));
    expect(retry.status).toBe(201);
    const order = (await retry.json()) as { id: string; case: { case_number: string; new: boolean } };
    expect(order.case.new).toBe(true);
    expect(await totals()).toEqual({ orders: 1, placements: 1, cases: 1 });
    expect(await count(store, "SELECT count(*) AS n FROM placement_intents")).toBe(0);
    const orphans = await count(
      store,
      "SELECT count(*) AS n FROM case_orders co WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = co.order_id)",
    );
    expect(orphans).toBe(0);
  });
});
