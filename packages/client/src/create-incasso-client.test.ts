import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncassoClient, type IncassoClient } from "./create-incasso-client.js";
import { IncassoApiError, isIncassoApiError } from "./errors.js";
import { invoice, orderBody } from "./internal/testing/order-bodies.js";
import { type RunningServer, startServer } from "./internal/testing/start-server.js";
import type { ResponseMeta } from "./response-meta.js";

// Every method against the reference server over real HTTP on 127.0.0.1.
let server: RunningServer;
let client: IncassoClient;
beforeAll(async () => {
  server = await startServer();
  client = createIncassoClient({ baseUrl: server.url, apiKey: server.keys.live });
});
afterAll(() => server?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REQUEST_ID = /^\S+$/;

describe("ping", () => {
  it("answers without a key, unauthenticated", async () => {
    const anonymous = createIncassoClient({ baseUrl: server.url });
    const ping = await anonymous.ping();
    expect(ping.status).toBe("ok");
    expect(ping.authenticated).toBe(false);
    expect(ping.client).toBeUndefined();
    expect(ping.$response.status).toBe(200);
    expect(ping.$response.requestId).toMatch(REQUEST_ID);
  });

  it("tells whose key it is", async () => {
    const ping = await client.ping();
    expect(ping.authenticated).toBe(true);
    expect(ping.client).toEqual({ name: "Client Acme", mode: "live", creditor: "Acme Creditor BV" });
    expect(ping.features).toEqual({ creditor_management: true });
  });
});

describe("orders", () => {
  it("create: 201 Order with a random Idempotency-Key and the rate limit of the answer", async () => {
    const order = await client.orders.create(orderBody("C-1"));
    expect(order.id).toMatch(/^ord_[0-9a-f]{16}$/);
    expect(order.object).toBe("order");
    expect(order.mode).toBe("live");
    expect(order.reference).toBe("R-C-1");
    expect(order.case.new).toBe(true);
    expect(order.case.case_number).toEqual(expect.any(String));
    expect(order.invoice_count).toBe(2);
    expect(order.total_amount_cents).toBe(145000);
    expect(order.debtors).toEqual([{ name: "Voorbeeld B.V.", customer_number: "C-1" }]);
    expect(order.$response.status).toBe(201);
    expect(order.$response.idempotencyKey).toMatch(UUID);
    expect(order.$response.replayed).toBe(false);
    expect(order.$response.attempts).toBe(1);
    expect(order.$response.rateLimit).toEqual({ limit: 1000, remaining: 999, reset: expect.any(Number) });
    // $response is not part of the wire object.
    expect(Object.keys(order)).not.toContain("$response");
    expect(JSON.parse(JSON.stringify(order))).not.toHaveProperty("$response");
  });

  it("create: a given Idempotency-Key sent twice gets the same order, replayed", async () => {
    const first = await client.orders.create(orderBody("C-2"), { idempotencyKey: "client-test-C-2" });
    const again = await client.orders.create(orderBody("C-2"), { idempotencyKey: "client-test-C-2" });
    expect(again.id).toBe(first.id);
    expect(again.$response.idempotencyKey).toBe("client-test-C-2");
    expect(again.$response.replayed).toBe(true);
    expect(await server.count("SELECT count(*) AS n FROM orders WHERE reference = $1", ["R-C-2"])).toBe(1);
  });

  it("create: a test key places no case and says test_mode", async () => {
    const test = createIncassoClient({ baseUrl: server.url, apiKey: server.keys.test });
    const order = await test.orders.create(orderBody("C-3"));
    expect(order.mode).toBe("test");
    expect(order.case.case_number).toBe(null);
    expect(order.warnings.map((w) => w.code)).toContain("test_mode");
  });

  it("list and get: the order as stored, with its live case status", async () => {
    const order = await client.orders.create(orderBody("C-4"));
    const page = await client.orders.list({ reference: "R-C-4" });
    expect(page.object).toBe("list");
    expect(page.has_more).toBe(false);
    expect(page.next_cursor).toBe(null);
    expect(page.data).toEqual([
      {
        id: order.id,
        object: "order",
        mode: "live",
        type: "pre-incasso",
        reference: "R-C-4",
        case: order.case,
        debtors_summary: "Voorbeeld B.V.",
        invoice_count: 2,
        total_amount_cents: 145000,
        created_at: order.created_at,
      },
    ]);
    const status = await client.orders.get(order.id);
    expect(status.id).toBe(order.id);
    expect(status.case.case_number).toBe(order.case.case_number);
    expect(status.case.open).toBe(true);
    expect(status.total_amount_cents).toBe(145000);
    expect(status.actions).toEqual([]);
    expect(status.$response.status).toBe(200);
  });

  it("hold, withdraw and reportPayment: 202 OrderAction, listed on the order newest first", async () => {
    const order = await client.orders.create(orderBody("C-5"));
    const hold = await client.orders.hold(order.id, { reason: "Debtor disputes F-2" });
    expect(hold).toMatchObject({ id: order.id, object: "order_action", action: "hold", status: "requested" });
    expect(hold.case.case_number).toBe(order.case.case_number);
    expect(hold.$response.status).toBe(202);
    const withdraw = await client.orders.withdraw(order.id);
    expect(withdraw).toMatchObject({ action: "withdraw", status: "requested" });
    const payment = await client.orders.reportPayment(order.id, {
      amount_cents: 5000,
      payment_date: "2026-11-20",
      reason: "Paid directly",
    });
    expect(payment).toMatchObject({
      action: "payments",
      status: "requested",
      amount_cents: 5000,
      payment_date: "2026-11-20",
    });
    const status = await client.orders.get(order.id);
    expect(status.actions.map((a) => [a.action, a.reason])).toEqual([
      ["payments", "Paid directly"],
      ["withdraw", null],
      ["hold", "Debtor disputes F-2"],
    ]);
  });

  it("all: every order over several pages, following next_cursor", async () => {
    const key = await server.issueKey("Client Pages", { perMinute: 1000 });
    const seen: ResponseMeta[] = [];
    const own = createIncassoClient({ baseUrl: server.url, apiKey: key, onResponse: (m) => seen.push(m) });
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await own.orders.create(orderBody(`P-${i}`))).id);
    seen.length = 0;
    const listed: string[] = [];
    for await (const order of own.orders.all({ limit: 2, type: "pre-incasso" })) listed.push(order.id);
    expect(listed).toEqual(ids.reverse()); // newest first
    expect(seen.map((m) => m.status)).toEqual([200, 200, 200]);
    const none: string[] = [];
    for await (const order of own.orders.all({ type: "incasso" })) none.push(order.id);
    expect(none).toEqual([]);
  });
});

describe("creditors", () => {
  it("create and list", async () => {
    const creditor = await client.creditors.create({ reference: "CR-1", name: "Dochter B.V." });
    expect(creditor).toEqual({
      id: expect.stringMatching(/^cred_[0-9a-f]{16}$/),
      object: "creditor",
      reference: "CR-1",
      name: "Dochter B.V.",
      created_at: expect.any(String),
    });
    expect(creditor.$response.status).toBe(201);
    expect(creditor.$response.idempotencyKey).toMatch(UUID);
    const list = await client.creditors.list({ limit: 10 });
    expect(list.object).toBe("list");
    expect(list.data.map((c) => c.id)).toContain(creditor.id);
    expect(list.$response.rateLimit?.limit).toEqual(expect.any(Number));
  });

  it("a duplicate reference is 409 creditor_exists", async () => {
    await client.creditors.create({ reference: "CR-2", name: "Zus B.V." });
    const error = await client.creditors.create({ reference: "CR-2", name: "Zus B.V." }).catch((e) => e);
    expect(isIncassoApiError(error)).toBe(true);
    expect([error.status, error.code]).toEqual([409, "creditor_exists"]);
  });

  it("without creditor management: 403 creditor_feature_disabled", async () => {
    const plain = createIncassoClient({ baseUrl: server.url, apiKey: server.keys.plain });
    const error = await plain.creditors.list().catch((e) => e);
    expect([error.status, error.code]).toEqual([403, "creditor_feature_disabled"]);
  });
});

describe("tools", () => {
  it("wik: collection costs on the statutory scale, without a key", async () => {
    const anonymous = createIncassoClient({ baseUrl: server.url });
    const wik = await anonymous.tools.wik({ amount_cents: 125000 });
    expect(wik.object).toBe("wik_calculation");
    expect(wik.debtor_type).toBe("consumer");
    expect(wik.principal_amount_cents).toBe(125000);
    // 15% of the first 2500 EUR: 187.50 EUR.
    expect(wik.collection_costs_cents).toBe(18750);
    expect(wik.collection_costs_vat_cents).toBe(0);
    expect(wik.interest.amount_cents).toBe(0);
    expect(wik.$response.rateLimit).toEqual({ limit: 60, remaining: 59, reset: expect.any(Number) });
  });

  it("rolRouter: the competent court for a place", async () => {
    const result = await client.tools.rolRouter({ woonplaats: "Assen", naam: "Van der Berg B.V." });
    expect(result.object).toBe("rol_router_result");
    expect(result.status).toBe("ok");
    expect(result.gemeente).toBe("Assen");
    expect(result.maatgevende_letter).toBe("B");
    expect(result.$response.status).toBe(200);
    const ambiguous = await client.tools.rolRouter({ woonplaats: "Hengelo", naam: "Jansen" });
    expect(ambiguous.status).toBe("ambiguous");
  });
});

describe("errors", () => {
  it("a 422 becomes IncassoApiError with its field errors and the request id", async () => {
    const error = await client.orders.create(orderBody("E-1", { invoices: [invoice(0)] })).catch((e) => e);
    expect(error).toBeInstanceOf(IncassoApiError);
    expect(isIncassoApiError(error)).toBe(true);
    expect(error.name).toBe("IncassoApiError");
    expect(error.status).toBe(422);
    expect(error.code).toBe("validation_error");
    expect(error.title).toEqual(expect.any(String));
    expect(error.errors).toEqual([
      { field: "invoices[0].amount_cents", code: "too_small", message: expect.any(String) },
    ]);
    expect(error.requestId).toMatch(REQUEST_ID);
    expect(error.requestId).toBe(error.response.headers.get("x-request-id"));
    expect(error.response.attempts).toBe(1);
    expect(error.response.rateLimit?.limit).toBe(1000);
  });

  it("amount_too_high keeps its own code", async () => {
    const error = await client.orders
      .create(orderBody("E-2", { invoices: [invoice(100_000_000_001)] }))
      .catch((e) => e);
    expect([error.status, error.code]).toEqual([422, "amount_too_high"]);
  });

  it("401 unauthorized for a wrong key, 404 not_found for an unknown order, 409 on a test order", async () => {
    const wrong = createIncassoClient({ baseUrl: server.url, apiKey: "svc_live_wrong" });
    const unauthorized = await wrong.orders.list().catch((e) => e);
    expect([unauthorized.status, unauthorized.code]).toEqual([401, "unauthorized"]);
    const missing = await client.orders.get("ord_0000000000000000").catch((e) => e);
    expect([missing.status, missing.code]).toEqual([404, "not_found"]);
    const test = createIncassoClient({ baseUrl: server.url, apiKey: server.keys.test });
    const order = await test.orders.create(orderBody("E-3"));
    const noCase = await test.orders.hold(order.id).catch((e) => e);
    expect([noCase.status, noCase.code]).toEqual([409, "order_has_no_case"]);
  });

  it("an invalid cursor is 422 with field cursor", async () => {
    const error = await client.orders.list({ cursor: "garbage" }).catch((e) => e);
    expect(error.errors).toEqual([{ field: "cursor", code: "invalid_cursor", message: expect.any(String) }]);
  });

  it("is recognised by its brand, not only by instanceof", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("@incasso/client.IncassoApiError")]: true,
    });
    expect(isIncassoApiError(foreign)).toBe(true);
    expect(isIncassoApiError(new Error("plain"))).toBe(false);
    expect(isIncassoApiError({ code: "validation_error", status: 422 })).toBe(false);
    expect(isIncassoApiError(null)).toBe(false);
  });
});
