import { openCaseSystemStore } from "@incasso/case-system";
import { type CaseSystem, issueApiKey, type OrderPlacedInput } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, count, json, orderBody, ordersApi } from "./orders-fixtures.js";

// The optional `orderPlaced` step of the CaseSystem port, which a host's case system may have
// (the built-in one has none): called once the order row is stored, for live orders on a case,
// and again when a retry finds the order stored (it must be idempotent on the order id).
let store: SqlStore;
let api: ReturnType<typeof ordersApi>["api"];
const placed: { input: OrderPlacedInput; orderStored: boolean }[] = [];
let failHook = false;
beforeAll(async () => {
  store = await openCaseSystemStore();
  const built = ordersApi(store);
  const host: CaseSystem = {
    ...built.cases,
    async orderPlaced(input) {
      const stored = await store.orders.findById(input.organisationId, input.orderId);
      placed.push({ input, orderStored: stored !== undefined });
      if (failHook) throw new Error("the host's follow-up is down");
    },
  };
  api = ordersApi(store, { caseSystem: host }).api;
});
afterAll(() => store.close());

describe("the case system's orderPlaced step", () => {
  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    api.fetch(new Request("http://x/api/v1/orders", json(key, body, headers)));

  it("runs once per live order after the order row, and again for a retry that finds the order stored", async () => {
    const { key, record } = await issueApiKey(store, { organisation: "Hook BV", mode: "live" });
    const h = { "idempotency-key": "hook-1" };
    const body = orderBody({ type: "pre-incasso", debtors: [business("HOOK-1")] });
    const res = await post(key, body, h);
    expect(res.status).toBe(201);
    const order = await res.json();
    const expected = {
      input: {
        orderId: order.id,
        organisationId: record.organisationId,
        caseNumber: order.case.case_number,
        caseNew: true,
        type: "pre-incasso",
        at: new Date(order.created_at),
      },
      orderStored: true,
    };
    expect(placed.splice(0)).toEqual([expected]);

    // The answer was lost before the key kept it (a crash): the retry finds the stored order,
    // answers it as the replay it is, and runs the step again, with the same input.
    await store.database.query("DELETE FROM idempotency_keys WHERE key = $1", ["hook-1"]);
    const retry = await post(key, body, h);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    expect((await retry.json()).id).toBe(order.id);
    expect(placed.splice(0)).toEqual([expected]);
    // A replay of the kept answer reaches no case system.
    expect((await post(key, body, h)).headers.get("idempotency-replayed")).toBe("true");
    expect(placed).toEqual([]);
  });

  it("is not run for a test order, and its failure leaves the order standing", async () => {
    const test = await issueApiKey(store, { organisation: "Hook BV", mode: "test" });
    expect((await post(test.key, orderBody({ debtors: [business("HOOK-2")] }))).status).toBe(201);
    expect(placed).toEqual([]);

    const live = await issueApiKey(store, { organisation: "Hook BV", mode: "live" });
    failHook = true;
    const res = await post(live.key, orderBody({ debtors: [business("HOOK-3")] }));
    failHook = false;
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(placed.splice(0).map((p) => p.input.orderId)).toEqual([order.id]);
    expect(await count(store, "SELECT count(*) AS n FROM orders WHERE id = $1", [order.id])).toBe(1);
  });
});
