// Access control between two organisations, and between test and live keys, over every transport
// (spec Authentication rule 5: "A key never reaches another principal's data"; GET /orders/{orderId}
// 404 "no such order for the account"). Decisions: keys-organisations, idempotency-keys (scope is
// the organisation, test keys have a key space of their own, a key with visibility `own` gets 409
// for another key's record), orders-engine-control-requests (a test key may read the
// organisation's live orders with visibility `organisation` but never steer them).
import type { BuiltInCaseSystem } from "@incasso/case-system";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { type RunningTransport, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, business, json, orderBody, ordersApi } from "./orders-fixtures.js";

let store: SqlStore;
let api: ReturnType<typeof ordersApi>["api"];
let cases: BuiltInCaseSystem;
beforeAll(async () => {
  store = await openCaseSystemStore();
  ({ api, cases } = ordersApi(store));
});
afterAll(() => store.close());

const limits = { perMinute: 1000, perDay: 10_000 };

interface Placed {
  id: string;
  case: { case_number: string | null };
}

/** The five members every problem has; the rest (none today) may differ per request. */
function problemOf(body: Record<string, unknown>) {
  const { type, title, status, code, detail } = body;
  return { type, title, status, code, detail };
}

describe.each(transports)("access control between organisations over $name", (transport) => {
  let t: RunningTransport;
  const tag = transport.name.replace(/[^a-z]/g, "").slice(0, 8);
  const orgA = `access ${transport.name} A`;
  const orgB = `access ${transport.name} B`;
  // Org A's four kinds of key: live and test, each with visibility organisation and own.
  const a = { liveOrg: "", liveOwn: "", testOrg: "", testOwn: "" };
  let bLive = "";
  let bTest = "";
  // Org B's data, and every string of it that must never reach org A.
  const bIdemOrder = `${tag}-b-order-key`;
  const bIdemCreditor = `${tag}-b-creditor-key`;
  const bOrderBody = orderBody({ reference: `${tag}-B-SECRET`, debtors: [business(`${tag}-BCN`)] });
  const bCreditorBody = { reference: `${tag}-B-CRED`, name: "Geheime Dochter B.V." };
  let bOrder: Placed;
  let bTestOrder: Placed;
  let bCreditorId = "";
  let secrets: string[] = [];
  // Org A's own orders, live and test.
  let aLive: Placed;
  let aTest: Placed;

  const place = async (key: string, body: unknown, idem?: string): Promise<Placed> => {
    const res = await t.request("/orders", json(key, body, idem ? { "idempotency-key": idem } : {}));
    expect(res.status).toBe(201);
    return (await res.json()) as Placed;
  };
  /** The text of a response, after proving it names nothing of org B. */
  const leakFree = async (res: Response, only = secrets): Promise<string> => {
    const text = await res.text();
    for (const secret of only)
      expect({ leaked: secret, in: text.includes(secret) }).toEqual({ leaked: secret, in: false });
    return text;
  };

  beforeAll(async () => {
    t = await transport.start(api);
    const issue = async (organisation: string, mode: "live" | "test", visibility: "own" | "organisation") =>
      (await issueApiKey(store, { organisation, mode, visibility, creditorManagement: true, ...limits })).key;
    a.liveOrg = await issue(orgA, "live", "organisation");
    a.liveOwn = await issue(orgA, "live", "own");
    a.testOrg = await issue(orgA, "test", "organisation");
    a.testOwn = await issue(orgA, "test", "own");
    bLive = await issue(orgB, "live", "organisation");
    bTest = await issue(orgB, "test", "organisation");

    bOrder = await place(bLive, bOrderBody, bIdemOrder);
    bTestOrder = await place(bTest, orderBody({ reference: `${tag}-B-TEST` }));
    const cred = await t.request(
      "/creditors",
      json(bLive, bCreditorBody, { "idempotency-key": bIdemCreditor }),
    );
    expect(cred.status).toBe(201);
    bCreditorId = ((await cred.json()) as { id: string }).id;
    expect(bOrder.case.case_number).toMatch(/^\d{4}-\d{6}$/);
    secrets = [
      bOrder.id,
      bTestOrder.id,
      bOrder.case.case_number as string,
      `${tag}-B-SECRET`,
      `${tag}-B-TEST`,
      `${tag}-BCN`,
      bCreditorId,
      "Geheime Dochter",
      orgB,
    ];

    aLive = await place(
      a.liveOrg,
      orderBody({ reference: `${tag}-A-LIVE`, debtors: [business(`${tag}-ACN`)] }),
    );
    aTest = await place(a.testOwn, orderBody({ reference: `${tag}-A-TEST` }));
  });
  afterAll(() => t.close());

  const keyNames = ["liveOrg", "liveOwn", "testOrg", "testOwn"] as const;

  it("no key of org A reads org B's live or test order: 404 not_found, word for word the answer to an unknown id", async () => {
    for (const name of keyNames) {
      const unknown = await t.request("/orders/ord_0000000000000000", bearer(a[name]));
      expect(unknown.status).toBe(404);
      const expected = problemOf(JSON.parse(await unknown.text()));
      expect(expected).toMatchObject({ status: 404, code: "not_found" });
      for (const id of [bOrder.id, bTestOrder.id]) {
        const res = await t.request(`/orders/${id}`, bearer(a[name]));
        expect({ name, id, status: res.status }).toEqual({ name, id, status: 404 });
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(problemOf(JSON.parse(await leakFree(res)))).toEqual(expected);
      }
    }
  });

  it("no key of org A holds, withdraws or reports a payment on org B's orders: 404, and nothing lands on B's case", async () => {
    const caseNumber = bOrder.case.case_number as string;
    const tasksBefore = (await cases.getCase({ caseNumber }))?.tasks.length;
    for (const name of keyNames) {
      for (const id of [bOrder.id, bTestOrder.id]) {
        for (const [action, body] of [
          ["hold", { reason: "Pauze graag" }],
          ["withdraw", { reason: "Intrekken" }],
          ["payments", { amount_cents: 1000, payment_date: "2026-11-20" }],
        ] as const) {
          const res = await t.request(`/orders/${id}/${action}`, json(a[name], body));
          expect({ name, id, action, status: res.status }).toEqual({ name, id, action, status: 404 });
          expect(res.headers.get("content-type")).toBe("application/problem+json");
          expect(JSON.parse(await leakFree(res))).toMatchObject({ status: 404, code: "not_found" });
        }
      }
    }
    expect((await cases.getCase({ caseNumber }))?.tasks.length).toBe(tasksBefore);
    for (const [key, id] of [
      [bLive, bOrder.id],
      [bTest, bTestOrder.id],
    ] as const) {
      const status = await t.request(`/orders/${id}`, bearer(key));
      expect(status.status).toBe(200);
      expect(((await status.json()) as { actions: unknown[] }).actions).toEqual([]);
    }
  });

  it("org A's lists hold none of org B's orders, with or without a filter on B's case number, reference or customer number", async () => {
    const empty = { object: "list", data: [], has_more: false, next_cursor: null };
    for (const name of keyNames) {
      const all = await t.request("/orders?limit=100", bearer(a[name]));
      expect(all.status).toBe(200);
      const ids = (JSON.parse(await leakFree(all)) as { data: { id: string }[] }).data.map((o) => o.id);
      expect(ids).not.toContain(bOrder.id);
      expect(ids).not.toContain(bTestOrder.id);
      for (const query of [
        `case_number=${bOrder.case.case_number}`,
        `reference=${tag}-B-SECRET`,
        `customer_number=${tag}-BCN`,
        `reference=${tag}-B-TEST`,
      ]) {
        const res = await t.request(`/orders?${query}`, bearer(a[name]));
        expect(res.status).toBe(200);
        expect({ name, query, body: JSON.parse(await leakFree(res)) }).toEqual({ name, query, body: empty });
      }
    }
  });

  it("org A neither lists nor uses org B's creditors: not in GET /creditors, 422 unknown_creditor by id or reference", async () => {
    const list = await t.request("/creditors?limit=100", bearer(a.liveOrg));
    expect(list.status).toBe(200);
    const body = JSON.parse(await leakFree(list)) as { data: { id: string; reference: string }[] };
    expect(body.data.map((c) => c.reference)).not.toContain(bCreditorBody.reference);
    for (const [field, creditor] of [
      ["creditor.id", { id: bCreditorId }],
      ["creditor.reference", { reference: bCreditorBody.reference }],
    ] as const) {
      const res = await t.request("/orders", json(a.liveOrg, orderBody({ creditor })));
      expect(res.status).toBe(422);
      const problem = JSON.parse(await res.text()) as {
        code: string;
        errors: { field: string; code: string }[];
      };
      expect(problem).toMatchObject({ status: 422, code: "unknown_creditor" });
      expect(problem.errors).toEqual([expect.objectContaining({ field, code: "unknown_creditor" })]);
    }
  });

  it("org A sending org B's Idempotency-Key with B's exact body gets an order and creditor of its own, never B's", async () => {
    // Org A's first key of each mode (live and test have key spaces of their own) gets a fresh
    // order; the second, with visibility own, then meets the first one's record inside org A:
    // 409 idempotency_conflict (decision idempotency-keys), still nothing of org B.
    for (const name of ["liveOrg", "liveOwn", "testOrg", "testOwn"] as const) {
      const res = await t.request("/orders", json(a[name], bOrderBody, { "idempotency-key": bIdemOrder }));
      const fresh = name === "liveOrg" || name === "testOrg";
      expect({ name, status: res.status }).toEqual({ name, status: fresh ? 201 : 409 });
      expect(res.headers.get("idempotency-replayed")).toBeNull();
      // The reference and customer number are in the body A sent itself, so echoed; B's ids and
      // case number must not be.
      const body = JSON.parse(
        await leakFree(res, [bOrder.id, bOrder.case.case_number as string, orgB]),
      ) as Record<string, unknown>;
      if (name === "liveOrg") {
        expect(body).toMatchObject({
          mode: "live",
          case: { case_number: expect.stringMatching(/^\d{4}-\d{6}$/), new: true },
        });
      } else if (name === "testOrg") {
        expect(body).toMatchObject({ mode: "test", case: { case_number: null } });
      } else {
        expect(body).toMatchObject({ status: 409, code: "idempotency_conflict" });
      }
    }
    const cred = await t.request(
      "/creditors",
      json(a.liveOrg, bCreditorBody, { "idempotency-key": bIdemCreditor }),
    );
    expect(cred.status).toBe(201);
    expect(cred.headers.get("idempotency-replayed")).toBeNull();
    const created = JSON.parse(await cred.text()) as { id: string; reference: string };
    expect(created.id).not.toBe(bCreditorId);
    expect(created.reference).toBe(bCreditorBody.reference);
  });

  it("within org A, a key with visibility own never gets another key's outcome by replaying its Idempotency-Key", async () => {
    const body = orderBody({ reference: `${tag}-A-IDEM`, debtors: [business(`${tag}-AIDEM`)] });
    const first = await t.request("/orders", json(a.liveOrg, body, { "idempotency-key": `${tag}-a-shared` }));
    expect(first.status).toBe(201);
    const placed = (await first.json()) as Placed;
    const replay = await t.request(
      "/orders",
      json(a.liveOrg, body, { "idempotency-key": `${tag}-a-shared` }),
    );
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(((await replay.json()) as Placed).id).toBe(placed.id);
    const own = await t.request("/orders", json(a.liveOwn, body, { "idempotency-key": `${tag}-a-shared` }));
    expect(own.status).toBe(409);
    const text = await own.text();
    expect(JSON.parse(text)).toMatchObject({ status: 409, code: "idempotency_conflict" });
    expect(text).not.toContain(placed.id);
    expect(text).not.toContain(placed.case.case_number as string);
  });

  it("test and live: a key with visibility own sees only its own orders; a test key never steers a live order", async () => {
    // Visibility own: the test key does not see the live order, nor the live key the test order.
    for (const [key, id] of [
      [a.testOwn, aLive.id],
      [a.liveOwn, aTest.id],
    ] as const) {
      const res = await t.request(`/orders/${id}`, bearer(key));
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
      const list = (await (await t.request("/orders?limit=100", bearer(key))).json()) as {
        data: { id: string }[];
      };
      expect(list.data.map((o) => o.id)).not.toContain(id);
    }
    const testOwnList = (await (await t.request("/orders?limit=100", bearer(a.testOwn))).json()) as {
      data: { mode: string }[];
    };
    expect(new Set(testOwnList.data.map((o) => o.mode))).toEqual(new Set(["test"]));
    // Visibility organisation: a test key reads the live order (decision
    // orders-engine-control-requests) but any control request is 409 test_key_on_live_order.
    expect((await t.request(`/orders/${aLive.id}`, bearer(a.testOrg))).status).toBe(200);
    for (const [action, body] of [
      ["hold", {}],
      ["withdraw", {}],
      ["payments", { amount_cents: 100 }],
    ] as const) {
      const res = await t.request(`/orders/${aLive.id}/${action}`, json(a.testOrg, body));
      expect({ action, status: res.status }).toEqual({ action, status: 409 });
      expect(await res.json()).toMatchObject({ status: 409, code: "test_key_on_live_order" });
      // A live key on a test order: the order has no case to steer.
      const onTest = await t.request(`/orders/${aTest.id}/${action}`, json(a.liveOrg, body));
      expect({ action, status: onTest.status }).toEqual({ action, status: 409 });
      expect(await onTest.json()).toMatchObject({ status: 409, code: "order_has_no_case" });
    }
    const live = (await (await t.request(`/orders/${aLive.id}`, bearer(a.liveOrg))).json()) as {
      actions: unknown[];
    };
    expect(live.actions).toEqual([]);
  });
});
