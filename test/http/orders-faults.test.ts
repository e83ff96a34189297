import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import {
  type FaultyCaseSystem,
  faultyCaseSystem,
  inProcessTransport,
  nodeHttpTransport,
  type RunningTransport,
  responseValidator,
} from "@incasso/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTextPdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { bearer, business, count, json, orderBody, ordersApi, rateHeaders } from "./orders-fixtures.js";
import { type StepwiseHost, stepwiseHost } from "./stepwise-host.js";

// Every failure path of the CaseSystem port, through a case system that fails where told: the
// built-in one with its one-call placement (decision case-system-port-one-call-placement), and a
// host's case system whose placeOnCase placeOnCaseStepwise builds from smaller calls (find, open
// or join, and one addItems call, decision case-system-port-batched-items, or one call per item).
let store: SqlStore;
let faulty: FaultyCaseSystem;
let separate: StepwiseHost;
let perItem: StepwiseHost;
let api: ReturnType<typeof ordersApi>["api"];
let separateApi: ReturnType<typeof ordersApi>["api"];
let perItemApi: ReturnType<typeof ordersApi>["api"];
let check: ReturnType<typeof responseValidator>;
let pdfBase64: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  const built = ordersApi(store);
  faulty = faultyCaseSystem(built.cases);
  separate = stepwiseHost(built.cases, store, { batched: true });
  perItem = stepwiseHost(built.cases, store, { batched: false });
  api = ordersApi(store, { caseSystem: faulty }).api;
  separateApi = ordersApi(store, { caseSystem: separate.caseSystem }).api;
  perItemApi = ordersApi(store, { caseSystem: perItem.caseSystem }).api;
  check = responseValidator(api.openapi());
  pdfBase64 = Buffer.from(await makeTextPdf({ pages: [["Factuur F-1"]] })).toString("base64");
});
afterAll(() => store.close());
afterEach(() => {
  faulty.reset();
  separate.reset();
  perItem.reset();
});

describe.each([inProcessTransport, nodeHttpTransport])("case system failures over $name", (transport) => {
  let t: RunningTransport;
  let ts: RunningTransport;
  let tp: RunningTransport;
  let live: string;
  let n = 0;
  // A fresh customer number per test, so no test merges into another's case.
  const fresh = () => `F-${transport.name.replace(/[^a-z]/g, "")}-${++n}`;
  beforeAll(async () => {
    t = await transport.start(api);
    ts = await transport.start(separateApi);
    tp = await transport.start(perItemApi);
    live = (
      await issueApiKey(store, { organisation: `faults ${transport.name}`, mode: "live", perMinute: 1000 })
    ).key;
  });
  afterAll(async () => {
    await t.close();
    await ts.close();
    await tp.close();
  });
  const orderItems = async (orderId: string) => ({
    addresses: await count(
      store,
      "SELECT count(*) AS n FROM case_debtors WHERE order_id = $1 AND street IS NOT NULL",
      [orderId],
    ),
    invoices: await count(store, "SELECT count(*) AS n FROM case_invoices WHERE order_id = $1", [orderId]),
  });

  const totals = async () => ({
    orders: await count(store, "SELECT count(*) AS n FROM orders"),
    cases: await count(store, "SELECT count(*) AS n FROM cases"),
  });

  for (const joining of [false, true]) {
    it(`placeOnCase fails for an order that ${joining ? "joins a case" : "opens a case"} → 502 upstream_error with rate-limit headers, nothing stored`, async () => {
      const customer = fresh();
      if (joining) await t.request("/orders", json(live, orderBody({ debtors: [business(customer)] })));
      const before = await totals();
      faulty.failNext("placeOnCase");
      const res = await t.request("/orders", json(live, orderBody({ debtors: [business(customer)] })));
      expect(res.status).toBe(502);
      expect(rateHeaders(res)[0]).toBe("1000");
      const problem = await res.json();
      check("/orders", "post", 502, problem);
      expect(problem).toMatchObject({ status: 502, code: "upstream_error" });
      expect(await totals()).toEqual(before);
    });
  }

  for (const step of ["findOpenCases", "openCase", "joinCase"] as const) {
    it(`${step} fails (a host with smaller calls) → 502 upstream_error with rate-limit headers, nothing stored`, async () => {
      const customer = fresh();
      if (step === "joinCase")
        await ts.request("/orders", json(live, orderBody({ debtors: [business(customer)] })));
      const before = await totals();
      separate.failNext(step);
      const res = await ts.request("/orders", json(live, orderBody({ debtors: [business(customer)] })));
      expect(res.status).toBe(502);
      expect(rateHeaders(res)[0]).toBe("1000");
      const problem = await res.json();
      check("/orders", "post", 502, problem);
      expect(problem).toMatchObject({ status: 502, code: "upstream_error" });
      expect(await totals()).toEqual(before);
    });
  }

  const addressFailed = (name: string) => ({
    code: "debtor_address_failed",
    message: `Het adres van debiteur ${name} kon niet in het dossier worden vastgelegd. De opdracht is wel verwerkt.`,
    invoice_number: null,
  });
  const claimFailed = (invoiceNumber: string) => ({
    code: "claim_attach_failed",
    message: `Factuur ${invoiceNumber} kon niet aan de vordering in het dossier worden toegevoegd. De opdracht is wel verwerkt.`,
    invoice_number: invoiceNumber,
  });

  const callsSince = (faults: { calls: Record<string, number> }, before: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(faults.calls)
        .map(([step, n]) => [step, n - (before[step] ?? 0)])
        .filter(([, n]) => n !== 0),
    );

  it("the built-in case system gets one placeOnCase call per order and no other placing call", async () => {
    const before = { ...faulty.calls };
    const res = await t.request(
      "/orders",
      json(live, orderBody({ debtors: [business(fresh()), business(fresh(), "Tweede B.V.")] })),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([]);
    expect(callsSince(faulty, before)).toEqual({ placeOnCase: 1 });
    expect(await orderItems(order.id)).toEqual({ addresses: 2, invoices: 3 });
  });

  it("a host's smaller calls: the engine finds, opens and sends the items in one addItems call", async () => {
    const before = { ...separate.calls };
    const res = await ts.request(
      "/orders",
      json(live, orderBody({ debtors: [business(fresh()), business(fresh(), "Tweede B.V.")] })),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([]);
    expect(callsSince(separate, before)).toEqual({ findOpenCases: 1, openCase: 1, addItems: 1 });
    expect(await orderItems(order.id)).toEqual({ addresses: 2, invoices: 3 });
  });

  it("addItems fails (a host with smaller calls) → 201 with debtor_address_failed for every debtor and claim_attach_failed for every invoice", async () => {
    separate.failNext("addItems");
    const res = await ts.request(
      "/orders",
      json(live, orderBody({ debtors: [business(fresh()), business(fresh(), "Tweede B.V.")] })),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([
      addressFailed("Voorbeeld B.V."),
      addressFailed("Tweede B.V."),
      claimFailed("F-1"),
      claimFailed("F-2"),
      claimFailed("F-3"),
    ]);
    expect(await orderItems(order.id)).toEqual({ addresses: 0, invoices: 0 });
  });

  it("addItems wrote everything but its answer was lost → the warnings still cover every item of the call", async () => {
    separate.loseAnswers("addItems", true);
    const res = await ts.request("/orders", json(live, orderBody({ debtors: [business(fresh())] })));
    separate.loseAnswers("addItems", false);
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings.map((w: { code: string }) => w.code)).toEqual([
      "debtor_address_failed",
      "claim_attach_failed",
      "claim_attach_failed",
      "claim_attach_failed",
    ]);
    expect(await orderItems(order.id)).toEqual({ addresses: 1, invoices: 3 });
  });

  it("a host's smaller calls without addItems: one call per item", async () => {
    const before = { ...perItem.calls };
    const res = await tp.request(
      "/orders",
      json(live, orderBody({ debtors: [business(fresh()), business(fresh(), "Tweede B.V.")] })),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([]);
    expect(callsSince(perItem, before)).toEqual({
      findOpenCases: 1,
      openCase: 1,
      setDebtorAddress: 2,
      addInvoice: 3,
    });
    expect(await orderItems(order.id)).toEqual({ addresses: 2, invoices: 3 });
  });

  it("setDebtorAddress fails (a host without addItems) → 201 with debtor_address_failed; the order stands", async () => {
    perItem.failNext("setDebtorAddress");
    const res = await tp.request("/orders", json(live, orderBody({ debtors: [business(fresh())] })));
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([addressFailed("Voorbeeld B.V.")]);
    expect(await orderItems(order.id)).toEqual({ addresses: 0, invoices: 3 });
  });

  it("addInvoice fails for one invoice (a host without addItems) → 201 with claim_attach_failed naming that invoice", async () => {
    perItem.failNext("addInvoice", {
      when: (input) => (input as { invoiceIndex: number }).invoiceIndex === 1,
    });
    const res = await tp.request("/orders", json(live, orderBody({ debtors: [business(fresh())] })));
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.warnings).toEqual([claimFailed("F-2")]);
    expect(await orderItems(order.id)).toEqual({ addresses: 1, invoices: 2 });
  });

  it("storeAttachment fails → 201 with attachment_upload_failed naming the file", async () => {
    faulty.failNext("storeAttachment");
    const res = await t.request(
      "/orders",
      json(
        live,
        orderBody({
          debtors: [business(fresh())],
          attachments: [{ filename: "factuur-1.pdf", content_base64: pdfBase64 }],
        }),
      ),
    );
    expect(res.status).toBe(201);
    expect(
      (await res.json()).warnings.map((w: { code: string; message: string }) => [w.code, w.message]),
    ).toContainEqual([
      "attachment_upload_failed",
      "Bijlage factuur-1.pdf kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.",
    ]);
  });

  it("a lost answer of placeOnCase: 502, and the retry with the same Idempotency-Key reuses the case and adds nothing twice", async () => {
    const h = { "idempotency-key": `lost-place-${transport.name}` };
    const body = orderBody({ debtors: [business(fresh())] });
    const before = await totals();
    faulty.loseAnswers("placeOnCase", true);
    const lost = await t.request("/orders", json(live, body, h));
    expect(lost.status).toBe(502);
    faulty.loseAnswers("placeOnCase", false);
    // The case exists with every item, the order does not: a 5xx is not kept, so the retry runs
    // again. The key keeps its content: a retry with other content is a conflict, not a second
    // order on the case (spec POST /orders rule 3).
    expect(await totals()).toEqual({ orders: before.orders, cases: before.cases + 1 });
    const changed = await t.request("/orders", json(live, { ...body, reference: "R-CHANGED" }, h));
    expect(changed.status).toBe(409);
    expect(await changed.json()).toMatchObject({ code: "idempotency_conflict" });
    const retry = await t.request("/orders", json(live, body, h));
    expect(retry.status).toBe(201);
    const order = await retry.json();
    expect(order.case.new).toBe(true);
    expect(order.warnings).toEqual([]);
    expect(await totals()).toEqual({ orders: before.orders + 1, cases: before.cases + 1 });
    expect(await orderItems(order.id)).toEqual({ addresses: 1, invoices: 3 });
  });

  it("a lost answer of placeOnCase for an order that joined: the retry joins once, with one invoice.updated per invoice", async () => {
    const customer = fresh();
    const first = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(customer)] })))
    ).json();
    const h = { "idempotency-key": `lost-join-${transport.name}` };
    const body = orderBody({ debtors: [business(customer)], reference: "R-JOIN" });
    faulty.loseAnswers("placeOnCase", true);
    expect((await t.request("/orders", json(live, body, h))).status).toBe(502);
    faulty.loseAnswers("placeOnCase", false);
    const retry = await t.request("/orders", json(live, body, h));
    expect(retry.status).toBe(201);
    const order = await retry.json();
    expect(order.case).toEqual({ case_number: first.case.case_number, new: false });
    expect(order.warnings.map((w: { code: string }) => w.code)).toEqual(["attached_to_existing_case"]);
    expect(await orderItems(order.id)).toEqual({ addresses: 1, invoices: 3 });
    expect(
      await count(
        store,
        "SELECT count(*) AS n FROM webhook_events WHERE type = 'invoice.updated' AND payload::json->'data'->>'order_id' = $1",
        [order.id],
      ),
    ).toBe(3);
  });

  it("a lost answer after the case was opened (a host with smaller calls): 502, and the retry with the same Idempotency-Key reuses the case", async () => {
    const h = { "idempotency-key": `lost-${transport.name}` };
    const body = orderBody({ debtors: [business(fresh())] });
    const before = await totals();
    separate.loseAnswers("openCase", true);
    const lost = await ts.request("/orders", json(live, body, h));
    expect(lost.status).toBe(502);
    separate.loseAnswers("openCase", false);
    // The case exists, the order does not: a 5xx is not kept, so the retry runs again.
    expect(await totals()).toEqual({ orders: before.orders, cases: before.cases + 1 });
    const retry = await ts.request("/orders", json(live, body, h));
    expect(retry.status).toBe(201);
    const order = await retry.json();
    expect(order.case.new).toBe(true);
    expect(order.warnings).toEqual([]);
    expect(await totals()).toEqual({ orders: before.orders + 1, cases: before.cases + 1 });
    expect(
      await count(store, "SELECT count(*) AS n FROM cases WHERE opened_by_order_id = $1", [order.id]),
    ).toBe(1);
  });

  it("addTask fails → 502, no action listed; caseState fails → GET /orders/{orderId} 502", async () => {
    const order = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(fresh())] })))
    ).json();
    faulty.failNext("addTask");
    const res = await t.request(`/orders/${order.id}/hold`, json(live, {}));
    expect(res.status).toBe(502);
    expect(
      await count(store, "SELECT count(*) AS n FROM order_actions WHERE order_id = $1", [order.id]),
    ).toBe(0);
    faulty.failNext("caseState");
    const status = await t.request(`/orders/${order.id}`, bearer(live));
    expect(status.status).toBe(502);
    check("/orders/{orderId}", "get", 502, await status.json());
  });
});

describe("the OpenAPI document with the order endpoints", () => {
  it("documents every order route and stays valid OpenAPI 3.1", async () => {
    const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
    const doc = api.openapi();
    for (const [path, method] of [
      ["/orders", "post"],
      ["/orders", "get"],
      ["/orders/{orderId}", "get"],
      ["/orders/{orderId}/hold", "post"],
      ["/orders/{orderId}/withdraw", "post"],
      ["/orders/{orderId}/payments", "post"],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const post = doc.paths["/orders"]?.post as {
      requestBody: { content: Record<string, { schema: unknown }> };
    };
    expect(post.requestBody.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/CreateOrder",
    });
    const list = doc.paths["/orders"]?.get as { parameters: { name: string }[] };
    expect(list.parameters.map((p) => p.name)).toEqual([
      "case_number",
      "reference",
      "customer_number",
      "type",
      "limit",
      "cursor",
    ]);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });
});
