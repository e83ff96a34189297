import { gzipSync } from "node:zlib";
import type { BuiltInCaseSystem } from "@incasso/case-system";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey, newId, setUdfField } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTextPdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { fingerprintOf } from "../../packages/server/src/internal/request-fingerprint.js";
import {
  bearer,
  business,
  count,
  individual,
  json,
  orderBody,
  ordersApi,
  rateHeaders,
} from "./orders-fixtures.js";

let store: SqlStore;
let api: ReturnType<typeof ordersApi>["api"];
let cases: BuiltInCaseSystem;
let check: ReturnType<typeof responseValidator>;
let pdfBase64: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  ({ api, cases } = ordersApi(store));
  check = responseValidator(api.openapi());
  pdfBase64 = Buffer.from(
    await makeTextPdf({ pages: [["Factuur F-1", "Voorbeeld B.V.", "Totaal te betalen: EUR 1.250,00"]] }),
  ).toString("base64");
});
afterAll(() => store.close());

const ORDER_ID = /^ord_[0-9a-f]{16}$/;
const CASE_NUMBER = /^2026-\d{6}$/;

describe.each(transports)("POST /orders over $name", (transport) => {
  let t: RunningTransport;
  let live: string;
  let test: string;
  let org: string;
  // Each transport has its own organisation and customer numbers, so merges never cross suites.
  const cn = (n: string) => `${transport.name.replace(/[^a-z]/g, "").slice(0, 8)}-${n}`;
  beforeAll(async () => {
    t = await transport.start(api);
    org = `orders ${transport.name}`;
    const l = await issueApiKey(store, { organisation: org, mode: "live", perMinute: 1000, perDay: 10_000 });
    live = l.key;
    test = (await issueApiKey(store, { organisation: org, mode: "test", perMinute: 1000, perDay: 10_000 }))
      .key;
  });
  afterAll(() => t.close());

  it("a live key opens a new case: 201 with the exact Order, rate-limit headers, and everything on the case", async () => {
    const body = orderBody({
      debtors: [business(cn("NEW"))],
      metadata: { zeta: "laatste", alpha: "eerste" },
      description: "Onderhoud cv-ketel",
    });
    const res = await t.request("/orders", json(live, body));
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(rateHeaders(res)).toEqual(["1000", expect.stringMatching(/^\d+$/), "60"]);
    const order = await res.json();
    check("/orders", "post", 201, order);
    expect(order).toEqual({
      id: expect.stringMatching(ORDER_ID),
      object: "order",
      mode: "live",
      type: "pre-incasso",
      reference: "R-2026-17",
      case: { case_number: expect.stringMatching(CASE_NUMBER), new: true },
      debtors: [{ name: "Voorbeeld B.V.", customer_number: cn("NEW") }],
      invoice_count: 3,
      total_amount_cents: 150050,
      metadata: { zeta: "laatste", alpha: "eerste" },
      udf_fields: {},
      warnings: [],
      created_at: "2026-11-21T10:00:00.000Z",
    });
    // Echoed unchanged, key order included.
    expect(Object.keys(order.metadata)).toEqual(["zeta", "alpha"]);
    const kept = await cases.getCase({ caseNumber: order.case.case_number });
    expect(kept).toMatchObject({
      status: "Nieuw",
      open: true,
      reference: "R-2026-17",
      openedByOrderId: order.id,
      creditor: { id: null, name: org },
      // No title was sent: the template writes one from the description (pdf-guard).
      title: expect.stringMatching(/^Overeenkomst van opdracht voor /),
    });
    expect(kept?.debtors).toEqual([
      expect.objectContaining({
        name: "Voorbeeld B.V.",
        customerNumber: cn("NEW"),
        address: {
          street: "Teststraat",
          house_number: "10",
          house_number_suffix: null,
          postal_code: "9999 ZZ",
          city: "Testdorp",
          country: "NL",
        },
      }),
    ]);
    expect(kept?.invoices.map((i) => [i.invoiceNumber, i.dueDate, i.amountCents])).toEqual([
      ["F-1", "2026-09-15", 125000],
      ["F-2", "2026-10-15", 20000],
      ["F-3", "2026-10-31", 5050],
    ]);
    expect(kept?.notes.map((n) => n.text)).toEqual([
      `Metadata bij opdracht ${order.id}:\nzeta: laatste\nalpha: eerste`,
    ]);
  });

  it("a follow-up for the same customer_number joins the open case: case.new false, attached_to_existing_case", async () => {
    const first = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(cn("MERGE"))] })))
    ).json();
    const res = await t.request(
      "/orders",
      json(live, orderBody({ reference: "R-2", debtors: [business(cn("MERGE"))], title: "Eigen titel" })),
    );
    expect(res.status).toBe(201);
    const second = await res.json();
    check("/orders", "post", 201, second);
    expect(second.case).toEqual({ case_number: first.case.case_number, new: false });
    expect(second.warnings).toEqual([
      {
        code: "attached_to_existing_case",
        message: `De facturen zijn toegevoegd aan het openstaande dossier ${first.case.case_number} voor dit klantnummer.`,
        invoice_number: null,
      },
    ]);
    const kept = await cases.getCase({ caseNumber: first.case.case_number });
    // The fixture clock stands still, so both orders were added at the same instant: compare as a set.
    expect(kept?.orders.map((o) => [o.orderId, o.reference, o.title])).toEqual(
      expect.arrayContaining([
        [first.id, "R-2026-17", "Overeenkomst van opdracht voor facturen F-1, F-2 en F-3"],
        [second.id, "R-2", "Eigen titel"],
      ]),
    );
    expect(kept?.orders).toHaveLength(2);
    expect(kept?.invoices).toHaveLength(6);
  });

  it("several open cases for the customer numbers: the oldest takes the order, warning multiple_open_cases", async () => {
    const a = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(cn("A"))] })))
    ).json();
    const b = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(cn("B"))] })))
    ).json();
    const res = await t.request(
      "/orders",
      json(live, orderBody({ debtors: [business(cn("B")), business(cn("A"), "Tweede B.V.")] })),
    );
    const order = await res.json();
    expect(order.case).toEqual({ case_number: a.case.case_number, new: false });
    expect(order.warnings.map((w: { code: string }) => w.code)).toEqual([
      "attached_to_existing_case",
      "multiple_open_cases",
    ]);
    expect(order.warnings[1].message).toBe(
      `Voor dit klantnummer staan meerdere dossiers open (${a.case.case_number}, ${b.case.case_number}); de opdracht is toegevoegd aan het oudste, ${a.case.case_number}.`,
    );
  });

  it("a closed case takes no follow-ups: a new case opens", async () => {
    const first = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(cn("CLOSED"))] })))
    ).json();
    await cases.setStatus({ caseNumber: first.case.case_number, status: "Gesloten" });
    const next = await (
      await t.request("/orders", json(live, orderBody({ debtors: [business(cn("CLOSED"))] })))
    ).json();
    expect(next.case.new).toBe(true);
    expect(next.case.case_number).not.toBe(first.case.case_number);
  });

  it("a test key validates everything and creates no case: mode test, case_number null, warning test_mode", async () => {
    const before = await count(store, "SELECT count(*) AS n FROM cases");
    const res = await t.request("/orders", json(test, orderBody({ debtors: [business(cn("TEST"))] })));
    expect(res.status).toBe(201);
    const order = await res.json();
    check("/orders", "post", 201, order);
    expect(order).toMatchObject({ mode: "test", case: { case_number: null, new: true } });
    expect(order.warnings).toEqual([
      {
        code: "test_mode",
        message: "Testmodus: de opdracht is volledig gecontroleerd, maar er is geen dossier aangemaakt.",
        invoice_number: null,
      },
    ]);
    expect(await count(store, "SELECT count(*) AS n FROM cases")).toBe(before);
    expect(await count(store, "SELECT count(*) AS n FROM orders WHERE id = $1", [order.id])).toBe(1);
  });

  it("unknown fields are tolerated with unknown_field; unknown udf keys with udf_field_unknown; both echoed", async () => {
    const res = await t.request(
      "/orders",
      json(test, { ...orderBody(), kvk: "12345678", udf_fields: { kleur: "rood" } }),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    expect(order.udf_fields).toEqual({ kleur: "rood" });
    expect(order.warnings.map((w: { code: string }) => w.code)).toEqual([
      "unknown_field",
      "udf_field_unknown",
      "test_mode",
    ]);
  });

  it("every violation at once with exact paths → 422 validation_error, rate-limit headers, nothing stored", async () => {
    const before = await count(store, "SELECT count(*) AS n FROM orders");
    const body = orderBody();
    body.debtors = [
      {
        ...business(),
        address: { street: "Teststraat", house_number: "10", postal_code: "99999", city: "Testdorp" },
      },
    ];
    body.invoices = [
      { invoice_number: "F-1", invoice_date: "2099-01-01", payment_term_days: 14, amount_cents: 0 },
      { invoice_number: "F-2", invoice_date: "2026-01-01", amount_cents: 100 },
    ];
    const res = await t.request("/orders", json(live, body));
    expect(res.status).toBe(422);
    expect(rateHeaders(res)[0]).toBe("1000");
    const problem = await res.json();
    check("/orders", "post", 422, problem);
    expect(problem.code).toBe("validation_error");
    expect(problem.errors.map((e: { field: string; code: string }) => [e.field, e.code]).sort()).toEqual(
      [
        ["debtors[0].address.postal_code", "invalid_format"],
        ["invoices[0].amount_cents", "too_small"],
        ["invoices[0].invoice_date", "date_in_future"],
        ["invoices[1].due_date", "one_of_required"],
      ].sort(),
    );
    expect(await count(store, "SELECT count(*) AS n FROM orders")).toBe(before);
  });

  it("an amount above 100000000000 → 422 amount_too_high", async () => {
    const body = orderBody();
    body.invoices = [
      {
        invoice_number: "F-1",
        invoice_date: "2026-10-01",
        payment_term_days: 0,
        amount_cents: 100_000_000_001,
      },
    ];
    const res = await t.request("/orders", json(live, body));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: "amount_too_high",
      errors: [{ field: "invoices[0].amount_cents", code: "amount_too_high" }],
    });
  });

  it("incasso against an individual without a wik_letter → 422 wik_letter_required", async () => {
    const res = await t.request(
      "/orders",
      json(live, orderBody({ type: "incasso", debtors: [individual(cn("P"))] })),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: "wik_letter_required",
      errors: [{ field: "attachments", code: "wik_letter_required" }],
    });
  });

  it("not JSON → 415, empty → 400 empty_body, broken → 400 invalid_json, each with rate-limit headers", async () => {
    const plain = await t.request("/orders", {
      method: "POST",
      headers: { authorization: `Bearer ${live}`, "content-type": "text/plain" },
      body: "x",
    });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { code: string }).code).toBe("unsupported_media_type");
    expect(rateHeaders(plain)[0]).toBe("1000");
    const empty = await t.request("/orders", json(live, ""));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { code: string }).code).toBe("empty_body");
    const broken = await t.request("/orders", json(live, "{"));
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { code: string }).code).toBe("invalid_json");
    expect(rateHeaders(broken)[0]).toBe("1000");
  });

  it("a compressed body or a charset other than UTF-8 → 415 saying what is accepted, nothing bound to the key", async () => {
    const body = orderBody({ reference: "R-ENC", debtors: [business(cn("ENC"))] });
    const text = JSON.stringify(body);
    const h = { "idempotency-key": `enc-${transport.name}` };
    for (const [headers, payload, detail] of [
      // Labelled gzip but sent plain: it used to be read as plain JSON and placed.
      [{ "content-encoding": "gzip" }, text, "Content-Encoding gzip is not accepted"],
      [{ "content-encoding": "gzip" }, gzipSync(text), "Content-Encoding gzip is not accepted"],
      [{ "content-encoding": "identity, br" }, text, "Content-Encoding identity, br is not accepted"],
      // UTF-16 used to be decoded as UTF-8 (400 invalid_json); Latin-1 that happens to be ASCII, placed.
      [
        { "content-type": "application/json; charset=utf-16" },
        Buffer.from(`\ufeff${text}`, "utf16le"),
        "UTF-8",
      ],
      [{ "content-type": "application/json;charset=ISO-8859-1" }, text, "UTF-8"],
    ] as const) {
      const res = await t.request("/orders", { ...json(live, "", { ...h, ...headers }), body: payload });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      const problem = await res.json();
      check("/orders", "post", 415, problem);
      expect(problem).toMatchObject({ status: 415, code: "unsupported_media_type" });
      expect(problem.detail).toContain(detail);
      if ("content-encoding" in headers) {
        expect(problem.detail).toContain("identity");
        expect(res.headers.get("accept-encoding")).toBe("identity");
      } else {
        expect(problem.detail).toBe(
          `Content-Type must be application/json in UTF-8 (charset=utf-8 or none), not ${headers["content-type"]}.`,
        );
      }
      expect(rateHeaders(res)[0]).toBe("1000");
    }
    // Accepted: identity spelled out, and UTF-8 named in any case, quoted or not.
    const ok = await t.request(
      "/orders",
      json(live, body, {
        ...h,
        "content-encoding": "Identity",
        "content-type": 'application/json; charset="UTF-8"',
      }),
    );
    expect(ok.status).toBe(201);
  });

  it("a creditor object without creditor management → 403 creditor_feature_disabled", async () => {
    const res = await t.request("/orders", json(live, orderBody({ creditor: { reference: "X" } })));
    expect(res.status).toBe(403);
    const problem = await res.json();
    check("/orders", "post", 403, problem);
    expect(problem.code).toBe("creditor_feature_disabled");
    expect(rateHeaders(res)[0]).toBe("1000");
  });

  it("with creditor management: routed to the creditor; unknown → 422 unknown_creditor; both id and reference → 422", async () => {
    const managed = await issueApiKey(store, { organisation: org, mode: "live", creditorManagement: true });
    const creditor = await store.creditors.create({
      id: newId("cred"),
      organisationId: managed.record.organisationId,
      reference: `${transport.name}-CRED`,
      name: "Dochter B.V.",
      now: new Date(),
    });
    const ok = await t.request(
      "/orders",
      json(
        managed.key,
        orderBody({ debtors: [business(cn("CRED"))], creditor: { reference: `${transport.name}-CRED` } }),
      ),
    );
    expect(ok.status).toBe(201);
    const order = await ok.json();
    expect((await cases.getCase({ caseNumber: order.case.case_number }))?.creditor).toEqual({
      id: creditor.id,
      name: "Dochter B.V.",
    });
    const unknown = await t.request(
      "/orders",
      json(managed.key, orderBody({ creditor: { id: "cred_0000000000000000" } })),
    );
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({
      code: "unknown_creditor",
      errors: [{ field: "creditor.id", code: "unknown_creditor" }],
    });
    const both = await t.request(
      "/orders",
      json(managed.key, orderBody({ creditor: { id: "cred_0000000000000000", reference: "X" } })),
    );
    expect(both.status).toBe(422);
    expect(((await both.json()) as { code: string }).code).toBe("validation_error");
  });

  it("an attachment that is not a PDF → 422 invalid_attachment naming it; a real PDF is stored on the case", async () => {
    const bad = await t.request(
      "/orders",
      json(
        live,
        orderBody({
          attachments: [{ filename: "factuur.pdf", content_base64: Buffer.from("hello").toString("base64") }],
        }),
      ),
    );
    expect(bad.status).toBe(422);
    const problem = await bad.json();
    check("/orders", "post", 422, problem);
    expect(problem).toMatchObject({
      code: "invalid_attachment",
      errors: [{ field: "attachments[0].content_base64", code: "not_pdf" }],
    });
    const res = await t.request(
      "/orders",
      json(
        live,
        orderBody({
          debtors: [business(cn("PDF"))],
          attachments: [{ filename: "factuur", content_base64: pdfBase64, document_type: "invoice" }],
        }),
      ),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    const kept = await cases.getCase({ caseNumber: order.case.case_number });
    expect(kept?.attachments).toEqual([
      {
        orderId: order.id,
        position: 0,
        filename: "factuur.pdf",
        documentType: "invoice",
        sizeBytes: expect.any(Number),
      },
    ]);
    const file = await cases.readAttachment({
      caseNumber: order.case.case_number,
      orderId: order.id,
      position: 0,
    });
    expect(Buffer.from(file?.bytes ?? []).toString("base64")).toBe(pdfBase64);
  });

  it("the same Idempotency-Key and content → the same response replayed, one case", async () => {
    const h = { "idempotency-key": `idem-${transport.name}` };
    const body = orderBody({ debtors: [business(cn("IDEM"))] });
    const first = await t.request("/orders", json(live, body, h));
    expect(first.status).toBe(201);
    const text = await first.text();
    const again = await t.request("/orders", json(live, body, h));
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.text()).toBe(text);
    const order = JSON.parse(text);
    expect(
      await count(store, "SELECT count(*) AS n FROM cases WHERE opened_by_order_id = $1", [order.id]),
    ).toBe(1);
    const other = await t.request("/orders", json(live, { ...body, reference: "other" }, h));
    expect(other.status).toBe(409);
  });

  it("metadata and udf_fields keys named __proto__, constructor and prototype are stored and echoed exactly", async () => {
    // An organisation of its own, with custom fields of those names defined before its first order.
    const organisation = `reserved keys ${transport.name}`;
    const issued = await issueApiKey(store, { organisation, mode: "live", perMinute: 1000, perDay: 10_000 });
    const key = issued.key;
    await setUdfField(store, { organisation, name: "__proto__", type: "text" });
    await setUdfField(store, { organisation, name: "constructor", type: "number" });
    const metadata = '{"__proto__":"eerste","constructor":"tweede","prototype":"derde","toString":"vierde"}';
    const udf = '{"__proto__":"project","constructor":7,"prototype":true}';
    const base = JSON.stringify(orderBody({ debtors: [business(cn("PROTO"))] }));
    // Written as text: an object literal would set the prototype instead of sending the key.
    const raw = `${base.slice(0, -1)},"metadata":${metadata},"udf_fields":${udf}}`;
    const h = { "idempotency-key": `proto-${transport.name}` };
    const res = await t.request("/orders", json(key, raw, h));
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).toContain(`"metadata":${metadata},"udf_fields":${udf},`);
    const order = JSON.parse(text);
    check("/orders", "post", 201, order);
    expect(order.warnings).toEqual([
      {
        code: "udf_field_unknown",
        message: 'Het maatwerkveld "prototype" is niet voor dit account afgesproken en is overgeslagen.',
        invoice_number: null,
      },
    ]);
    // The replay answers the same text; the same key without the __proto__ entry is other content.
    const again = await t.request("/orders", json(key, raw, h));
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.text()).toBe(text);
    const without = raw.replace('"__proto__":"eerste",', "");
    const conflict = await t.request("/orders", json(key, without, h));
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).code).toBe("idempotency_conflict");
    // The store gives both maps back as sent, key order included.
    const stored = await store.orders.findById(issued.record.organisationId, order.id);
    expect(Object.entries(stored?.metadata ?? {})).toEqual(Object.entries(JSON.parse(metadata)));
    expect(Object.entries(stored?.udfFields ?? {})).toEqual(Object.entries(JSON.parse(udf)));
    expect(Object.getPrototypeOf(stored?.metadata)).toBe(Object.prototype);
    // On the case: the note names every key, and the defined custom fields are set.
    const kept = await cases.getCase({ caseNumber: order.case.case_number });
    expect(kept?.notes.map((n) => n.text)).toEqual([
      `Metadata bij opdracht ${order.id}:\n__proto__: eerste\nconstructor: tweede\nprototype: derde\ntoString: vierde`,
    ]);
    expect(Object.entries(kept?.udfFields ?? {}).sort()).toEqual([
      ["__proto__", "project"],
      ["constructor", 7],
    ]);
    // Nothing reached a prototype.
    expect(({} as Record<string, unknown>).eerste).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it("a test key gets __proto__, constructor and prototype back exactly too; the order reads and lists; unknown __proto__ fields are warned", async () => {
    const organisation = `reserved keys test ${transport.name}`;
    const issued = await issueApiKey(store, { organisation, mode: "test", perMinute: 1000, perDay: 10_000 });
    const key = issued.key;
    const metadata = '{"constructor":"c","__proto__":"p","prototype":"t","valueOf":"v"}';
    const udf = '{"prototype":1,"__proto__":null,"constructor":"x"}';
    const base = JSON.stringify(orderBody({ reference: `PROTO-T-${transport.name}` }));
    // Unknown fields of those names at the top level and in a debtor: tolerated, named in a warning.
    const raw = `${base.slice(0, -1)},"metadata":${metadata},"udf_fields":${udf},"__proto__":{"polluted":"top"}}`;
    const withDebtor = raw.replace('"debtors":[{', '"debtors":[{"__proto__":{"polluted":"debtor"},');
    expect(withDebtor).not.toBe(raw);
    const h = { "idempotency-key": `proto-test-${transport.name}` };
    const res = await t.request("/orders", json(key, withDebtor, h));
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).toContain(`"metadata":${metadata},"udf_fields":${udf},`);
    const order = JSON.parse(text);
    check("/orders", "post", 201, order);
    expect(order).toMatchObject({ mode: "test", case: { case_number: null, new: true } });
    expect(order.warnings.map((w: { code: string; message: string }) => [w.code, w.message])).toEqual([
      ["unknown_field", "Het veld __proto__ is onbekend en is genegeerd."],
      ["unknown_field", "Het veld debtors[0].__proto__ is onbekend en is genegeerd."],
      [
        "udf_field_unknown",
        'Het maatwerkveld "prototype" is niet voor dit account afgesproken en is overgeslagen.',
      ],
      [
        "udf_field_unknown",
        'Het maatwerkveld "__proto__" is niet voor dit account afgesproken en is overgeslagen.',
      ],
      [
        "udf_field_unknown",
        'Het maatwerkveld "constructor" is niet voor dit account afgesproken en is overgeslagen.',
      ],
      ["test_mode", "Testmodus: de opdracht is volledig gecontroleerd, maar er is geen dossier aangemaakt."],
    ]);
    // The replay is the same text, the same Idempotency-Key without the key is other content.
    const again = await t.request("/orders", json(key, withDebtor, h));
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.text()).toBe(text);
    const conflict = await t.request("/orders", json(key, withDebtor.replace('"__proto__":"p",', ""), h));
    expect(conflict.status).toBe(409);
    // GET /orders/{orderId} and the list (which carry no metadata) answer the order as any other.
    const read = await t.request(`/orders/${order.id}`, bearer(key));
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: order.id, mode: "test", reference: order.reference });
    const listed = await t.request(`/orders?reference=${order.reference}`, bearer(key));
    expect(listed.status).toBe(200);
    expect((await listed.json()).data.map((o: { id: string }) => o.id)).toEqual([order.id]);
    // Nothing reached a prototype, neither of a plain object nor of the stored maps.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const stored = await store.orders.findById(issued.record.organisationId, order.id);
    expect(Object.entries(stored?.metadata ?? {})).toEqual(Object.entries(JSON.parse(metadata)));
    expect(Object.entries(stored?.udfFields ?? {})).toEqual(Object.entries(JSON.parse(udf)));
    expect(Object.getPrototypeOf(stored?.udfFields)).toBe(Object.prototype);
  });

  it("a metadata __proto__ whose value is not a string → 422 naming metadata.__proto__, nothing stored", async () => {
    const base = JSON.stringify(orderBody({ debtors: [business(cn("PROTO-BAD"))] }));
    const raw = `${base.slice(0, -1)},"metadata":{"a":"b","__proto__":{"polluted":"yes"}}}`;
    const res = await t.request("/orders", json(live, raw));
    expect(res.status).toBe(422);
    const problem = await res.json();
    check("/orders", "post", 422, problem);
    expect(problem).toMatchObject({
      code: "validation_error",
      errors: [{ field: "metadata.__proto__", code: "invalid_type", message: "must be string, got object" }],
    });
    expect(problem.errors).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(
      await count(store, "SELECT count(*) AS n FROM orders WHERE customer_numbers::text LIKE $1", [
        `%${cn("PROTO-BAD")}%`,
      ]),
    ).toBe(0);
  });

  it("a body nested thousands of levels deep → 400 invalid_json, with or without an Idempotency-Key", async () => {
    const body = orderBody({ debtors: [business(cn("DEEP"))] });
    const text = JSON.stringify(body).replace(/}$/, `,"extra":${"[".repeat(3000)}${"]".repeat(3000)}}`);
    const keyed: Record<string, string>[] = [{}, { "idempotency-key": `deep-${transport.name}` }];
    for (const h of keyed) {
      const res = await t.request("/orders", json(live, text, h));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 400, code: "invalid_json" });
    }
    // Not bound to the key: the same key with a flat body is a new order.
    const ok = await t.request("/orders", json(live, body, { "idempotency-key": `deep-${transport.name}` }));
    expect(ok.status).toBe(201);
  });

  it("fields the database could not hold → 422 on the field, never a 502 to retry: NUL characters and year 0000", async () => {
    const body = orderBody({
      reference: "R-\u0000",
      debtors: [business(cn("NUL"))],
      invoices: [
        { invoice_number: "F-1", invoice_date: "0000-01-01", payment_term_days: 14, amount_cents: 1000 },
        { invoice_number: "F-2", invoice_date: "2026-01-01", due_date: "0000-12-31", amount_cents: 1000 },
      ],
    });
    const nul = await t.request("/orders", json(live, body));
    expect(nul.status).toBe(422);
    expect(await nul.json()).toMatchObject({
      code: "validation_error",
      errors: [{ field: "reference", code: "invalid_character" }],
    });
    const year0 = await t.request("/orders", json(live, { ...body, reference: "R-0" }));
    expect(year0.status).toBe(422);
    const problem = await year0.json();
    expect(problem.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ["invoices[0].invoice_date", "invalid_format"],
      ["invoices[1].due_date", "invalid_format"],
    ]);
  });

  it("an unpaired UTF-16 surrogate in any text → 422 invalid_character on each field, alike for test and live keys", async () => {
    // Valid JSON, but no Unicode text: PostgreSQL refuses it in json, so a live order used to fail
    // only in the case system, as 502 upstream_error, while the same body with a test key got 201.
    const debtor = business(cn("SUR"), "Voorbeeld \ud800 B.V.");
    debtor.phone = "06\udfff";
    debtor.address = {
      street: "Test\udc00straat",
      house_number: "1\ud83d",
      postal_code: "9999\udc00",
      city: "\udbffTestdorp",
    };
    const body = orderBody({
      reference: "R-SUR",
      debtors: [debtor],
      invoices: [
        {
          invoice_number: "F-\udbff",
          invoice_date: "2026-09-01",
          payment_term_days: 14,
          amount_cents: 1000,
          description: "x\ud800\ud800",
        },
        // A surrogate pair is one character (U+1F600) and fine.
        {
          invoice_number: "F-\ud83d\ude00",
          invoice_date: "2026-09-01",
          payment_term_days: 14,
          amount_cents: 1000,
        },
      ],
      metadata: { "k\ud800": "v", ok: "\udc00" },
      udf_fields: { dossier: "\ud800" },
    });
    const expected = [
      "debtors[0].company_name",
      "debtors[0].address.street",
      "debtors[0].address.house_number",
      "debtors[0].address.postal_code",
      "debtors[0].address.city",
      "debtors[0].phone",
      "invoices[0].invoice_number",
      "invoices[0].description",
      'metadata["k\\ud800"]',
      "metadata.ok",
      "udf_fields.dossier",
    ];
    for (const key of [live, test]) {
      const res = await t.request("/orders", json(key, body, { "idempotency-key": `sur-${transport.name}` }));
      expect(res.status).toBe(422);
      const problem = await res.json();
      expect(problem).toMatchObject({ status: 422, code: "validation_error" });
      expect(problem.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual(
        expected.map((field) => [field, "invalid_character"]),
      );
      expect(problem.errors[0].message).toBe("must not contain an unpaired surrogate (U+D800 to U+DFFF)");
    }
    // Nothing was kept under the Idempotency-Key: the corrected body is placed.
    const fixed = orderBody({ reference: "R-SUR", debtors: [business(cn("SUR"))] });
    const ok = await t.request("/orders", json(live, fixed, { "idempotency-key": `sur-${transport.name}` }));
    expect(ok.status).toBe(201);
  });

  it("an Idempotency-Key replays an order only to a key that may read it; other keys of the organisation get 409", async () => {
    const wide = (await issueApiKey(store, { organisation: org, mode: "live", visibility: "organisation" }))
      .key;
    const mine = (await issueApiKey(store, { organisation: org, mode: "live", visibility: "own" })).key;
    const h = { "idempotency-key": `shared-${transport.name}` };
    const body = orderBody({ reference: "R-SHARED", debtors: [business(cn("SHR"))] });
    const placed = await t.request("/orders", json(wide, body, h));
    expect(placed.status).toBe(201);
    const order = await placed.json();
    // A key that sees only its own orders: no replay of the other key's order, and no case number.
    for (const key of [live, mine]) {
      const res = await t.request("/orders", json(key, body, h));
      expect(res.status).toBe(409);
      expect(res.headers.get("idempotency-replayed")).toBeNull();
      const problem = await res.json();
      check("/orders", "post", 409, problem);
      expect(problem).toMatchObject({ status: 409, code: "idempotency_conflict" });
      expect(JSON.stringify(problem)).not.toContain(order.id);
      expect(JSON.stringify(problem)).not.toContain(order.case.case_number);
      expect((await t.request(`/orders/${order.id}`, bearer(key))).status).toBe(404);
    }
    // The key that made it, and a key that sees the organisation's orders, get the replay.
    for (const key of [
      wide,
      (await issueApiKey(store, { organisation: org, mode: "live", visibility: "organisation" })).key,
    ]) {
      const again = await t.request("/orders", json(key, body, h));
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotency-replayed")).toBe("true");
      expect((await again.json()).id).toBe(order.id);
    }
    // An own key's order is replayed to that key, not to another own key.
    const h2 = { "idempotency-key": `own-${transport.name}` };
    const body2 = orderBody({ reference: "R-OWN", debtors: [business(cn("OWN"))] });
    const own = await t.request("/orders", json(mine, body2, h2));
    expect(own.status).toBe(201);
    const ownId = (await own.json()).id;
    const replayed = await t.request("/orders", json(mine, body2, h2));
    expect([replayed.status, replayed.headers.get("idempotency-replayed")]).toEqual([201, "true"]);
    expect((await t.request("/orders", json(live, body2, h2))).status).toBe(409);
    // Also once the record is gone (past its retention): the order found under the derived id is
    // not answered to a key that cannot read it.
    await store.idempotency.prune(new Date("2100-01-01T00:00:00Z"));
    const late = await t.request("/orders", json(live, body2, h2));
    expect(late.status).toBe(409);
    const lateProblem = await late.json();
    expect(lateProblem.code).toBe("idempotency_conflict");
    expect(JSON.stringify(lateProblem)).not.toContain(ownId);
  });

  it("a retry that finds its order stored after a crash says it is a replay (Idempotency-Replayed: true)", async () => {
    const { key, record } = await issueApiKey(store, { organisation: org, mode: "live" });
    const idem = `crash-${transport.name}`;
    const body = orderBody({ reference: "R-CRASH", debtors: [business(cn("CRASH"))] });
    const first = await t.request("/orders", json(key, body, { "idempotency-key": idem }));
    expect(first.status).toBe(201);
    const sent = await first.text();
    // The process was killed after the order was stored but before its record was completed
    // durably: the record is left in progress, and its lease has run out.
    await store.database.query("DELETE FROM idempotency_keys WHERE key = $1", [idem]);
    await store.idempotency.claim({
      scope: record.organisationId,
      key: idem,
      fingerprint: `${await fingerprintOf("POST", "/api/v1/orders", body)}:${record.id}`,
      token: "killed",
      now: new Date("2026-11-21T09:59:00.000Z"),
      leaseSeconds: 30,
      retentionSeconds: 86_400,
    });
    const retry = await t.request("/orders", json(key, body, { "idempotency-key": idem }));
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    expect(await retry.text()).toBe(sent);
    // And so does every replay of the record the retry kept.
    const again = await t.request("/orders", json(key, body, { "idempotency-key": idem }));
    expect([again.status, again.headers.get("idempotency-replayed")]).toEqual([201, "true"]);
    expect(await again.text()).toBe(sent);
  });

  it("a request tried with a test key and then sent live with the same Idempotency-Key is placed live", async () => {
    const h = { "idempotency-key": `try-then-live-${transport.name}` };
    const body = orderBody({ debtors: [business(cn("TRY"))] });
    const tried = await t.request("/orders", json(test, body, h));
    expect(tried.status).toBe(201);
    const trial = await tried.json();
    expect(trial).toMatchObject({ mode: "test", case: { case_number: null, new: true } });
    const sent = await t.request("/orders", json(live, body, h));
    expect(sent.status).toBe(201);
    expect(sent.headers.get("idempotency-replayed")).toBeNull();
    const order = await sent.json();
    expect(order).toMatchObject({ mode: "live", case: { new: true } });
    expect(order.id).not.toBe(trial.id);
    expect(order.case.case_number).toMatch(/^\d{4}-\d{6}$/);
    // Each key space replays its own answer.
    const again = await t.request("/orders", json(test, body, h));
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect((await again.json()).id).toBe(trial.id);
  });
});

describe("POST /orders size limit", () => {
  it("over 40 MB → 413 payload_too_large, counted while streaming (no Content-Length)", async () => {
    const { key } = await issueApiKey(store, { organisation: "orders size", mode: "test" });
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 41) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await api.fetch(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
    expect(res.headers.get("ratelimit-limit")).toBe("30");
  });
});
