import { createHash } from "node:crypto";
import { connect } from "node:net";
import type { BuiltInCaseSystem } from "@incasso/case-system";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import {
  inProcessTransport,
  type RunningTransport,
  responseValidator,
  transports,
} from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, business, individual, json, orderBody, ordersApi, rateHeaders } from "./orders-fixtures.js";

/** Sends a request as bytes over a socket (framing the client library would not choose) and reads the answer. */
function raw(address: { host: string; port: number }, payload: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const socket = connect(address.port, address.host);
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const at = data.indexOf("\r\n\r\n");
      const head = data.slice(0, at);
      let body = data.slice(at + 4);
      // A chunked answer: the chunks' sizes and the last chunk taken off.
      if (/\r\ntransfer-encoding: chunked/i.test(head)) {
        let out = "";
        for (;;) {
          const end = body.indexOf("\r\n");
          const size = Number.parseInt(body.slice(0, end), 16);
          if (!(size > 0)) break;
          out += body.slice(end + 2, end + 2 + size);
          body = body.slice(end + 2 + size + 2);
        }
        body = out;
      }
      resolve({ status: Number(head.split(" ")[1]), body });
    });
    socket.write(payload);
  });
}

// The clock moves only when a test says so, so created_at is distinct per order where the order of
// the list matters, and the rate-limit window stays put.
let seconds = 0;
const advance = () => {
  seconds += 1;
};
const now = () => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + seconds * 1000);

let store: SqlStore;
let api: ReturnType<typeof ordersApi>["api"];
let cases: BuiltInCaseSystem;
let check: ReturnType<typeof responseValidator>;
beforeAll(async () => {
  store = await openCaseSystemStore();
  ({ api, cases } = ordersApi(store, { now }));
  check = responseValidator(api.openapi());
});
afterAll(() => store.close());

describe.each(transports)(
  "GET /orders, GET /orders/{orderId} and control requests over $name",
  (transport) => {
    let t: RunningTransport;
    let live: string;
    let own: string;
    let test: string;
    let other: string;
    const org = `read ${transport.name}`;
    const limits = { perMinute: 1000, perDay: 10_000 };
    const submit = async (key: string, body: unknown) => {
      advance();
      const res = await t.request("/orders", json(key, body));
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; case: { case_number: string | null }; created_at: string };
    };
    const list = async (key: string, query = "") => {
      const res = await t.request(`/orders${query}`, bearer(key));
      return { res, body: await res.json() };
    };
    beforeAll(async () => {
      t = await transport.start(api);
      live = (
        await issueApiKey(store, { organisation: org, mode: "live", visibility: "organisation", ...limits })
      ).key;
      own = (await issueApiKey(store, { organisation: org, mode: "live", visibility: "own", ...limits })).key;
      test = (await issueApiKey(store, { organisation: org, mode: "test", visibility: "own", ...limits }))
        .key;
      other = (
        await issueApiKey(store, { organisation: `${org} other`, mode: "live", visibility: "organisation" })
      ).key;
    });
    afterAll(() => t.close());

    it("lists newest first with filters, limit, debtors_summary, and a keyset cursor that survives inserts", async () => {
      const a = await submit(live, orderBody({ reference: "L-A", debtors: [business("LA-1")] }));
      const b = await submit(
        live,
        orderBody({ reference: "L-B", type: "incasso", debtors: [business("LB-1")] }),
      );
      const c = await submit(
        live,
        orderBody({ reference: "L-C", debtors: [business("LC-1"), individual("LC-2")] }),
      );
      const first = await list(live, "?limit=2");
      expect(first.res.status).toBe(200);
      expect(rateHeaders(first.res)[0]).toBe("120");
      check("/orders", "get", 200, first.body);
      expect(first.body.data.map((o: { id: string }) => o.id)).toEqual([c.id, b.id]);
      expect(first.body.data[0]).toEqual({
        id: c.id,
        object: "order",
        mode: "live",
        type: "pre-incasso",
        reference: "L-C",
        case: { case_number: c.case.case_number, new: true },
        debtors_summary: "Voorbeeld B.V., Jan de Vries",
        invoice_count: 3,
        total_amount_cents: 150050,
        created_at: c.created_at,
      });
      expect(first.body.has_more).toBe(true);
      // An order arriving between pages neither shifts nor repeats the next page.
      const d = await submit(live, orderBody({ reference: "L-D" }));
      const second = await list(live, `?limit=2&cursor=${first.body.next_cursor}`);
      expect(second.body.data.map((o: { id: string }) => o.id)[0]).toBe(a.id);
      expect((await list(live, "?limit=1")).body.data[0].id).toBe(d.id);
      expect((await list(live, "?reference=L-B")).body.data.map((o: { id: string }) => o.id)).toEqual([b.id]);
      expect((await list(live, "?customer_number=LC-2")).body.data.map((o: { id: string }) => o.id)).toEqual([
        c.id,
      ]);
      expect(
        (await list(live, `?case_number=${b.case.case_number}`)).body.data.map((o: { id: string }) => o.id),
      ).toEqual([b.id]);
      const incasso = await list(live, "?type=incasso");
      expect(incasso.body).toEqual({
        object: "list",
        data: [expect.objectContaining({ id: b.id })],
        has_more: false,
        next_cursor: null,
      });
    });

    it("pages through everything exactly once with the default limit of 25", async () => {
      const key = (await issueApiKey(store, { organisation: `${org} paging`, mode: "test", ...limits })).key;
      const ids: string[] = [];
      for (let i = 0; i < 27; i++) ids.push((await submit(key, orderBody({ reference: `P-${i}` }))).id);
      const page1 = await list(key);
      expect(page1.body.data).toHaveLength(25);
      const page2 = await list(key, `?cursor=${page1.body.next_cursor}`);
      expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
      expect([...page1.body.data, ...page2.body.data].map((o: { id: string }) => o.id)).toEqual(
        ids.reverse(),
      );
    });

    it("visibility: own sees its own orders only, organisation sees all, another organisation sees none", async () => {
      const mine = await submit(own, orderBody({ reference: "V-OWN" }));
      const theirs = await submit(live, orderBody({ reference: "V-ORG" }));
      const ownList = (await list(own, "?limit=100")).body.data.map((o: { id: string }) => o.id);
      expect(ownList).toEqual([mine.id]);
      const orgList = (await list(live, "?limit=100")).body.data.map((o: { id: string }) => o.id);
      expect(orgList).toEqual(expect.arrayContaining([mine.id, theirs.id]));
      expect((await list(other, "?limit=100")).body.data.map((o: { id: string }) => o.id)).not.toContain(
        mine.id,
      );
    });

    it("a bad query → 422 validation_error with every parameter named", async () => {
      const res = await t.request("/orders?limit=0&type=civil&cursor=nope", bearer(live));
      expect(res.status).toBe(422);
      const problem = await res.json();
      check("/orders", "get", 422, problem);
      expect(problem.code).toBe("validation_error");
      expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "cursor",
        "limit",
        "type",
      ]);
      const repeated = await t.request("/orders?reference=a&reference=b", bearer(live));
      expect(repeated.status).toBe(422);
      expect((await t.request("/orders?limit=101", bearer(live))).status).toBe(422);
    });

    it("a parameter named __proto__ (even repeated) is an unknown parameter, not the query's prototype", async () => {
      await submit(live, orderBody({ reference: "P-1", debtors: [business("P-1")], kvk: "1" }));
      await submit(live, orderBody({ reference: "P-2", debtors: [business("P-2")], kvk: "1" }));
      const res = await t.request("/orders?__proto__=a&__proto__=b&limit=1", bearer(live));
      expect(res.status).toBe(200);
      const page = await res.json();
      expect(page.data).toHaveLength(1);
      expect(page.has_more).toBe(true);
    });

    it("GET /orders/{orderId}: the live case status; balance only once in treatment, with costs and interest", async () => {
      // An incasso order: the client's own 14-day letter came before it, so its claims carry the
      // collection costs from the start (decision case-system-collection-costs).
      const order = await submit(
        live,
        orderBody({ reference: "S-1", type: "incasso", debtors: [business("S-1")], kvk: "1" }),
      );
      const res = await t.request(`/orders/${order.id}`, bearer(live));
      expect(res.status).toBe(200);
      const status = await res.json();
      check("/orders/{orderId}", "get", 200, status);
      expect(status).toEqual({
        id: order.id,
        object: "order",
        mode: "live",
        type: "incasso",
        reference: "S-1",
        case: { case_number: order.case.case_number, new: true, status: "Nieuw", open: true },
        invoice_count: 3,
        total_amount_cents: 150050,
        warnings: [expect.objectContaining({ code: "unknown_field" })],
        actions: [],
        created_at: order.created_at,
      });
      await cases.setStatus({ caseNumber: order.case.case_number as string, status: "In behandeling" });
      const treated = await (await t.request(`/orders/${order.id}`, bearer(live))).json();
      // Principal 150050; BIK 15% = 22507.5 → 22508; handelsrente 10.40% (from 2026-07-01) to
      // 2026-11-21: 125000 × 67 d → 2386, 20000 × 37 d → 211, 5050 × 21 d → 30.
      expect(treated.case).toEqual({
        case_number: order.case.case_number,
        new: true,
        status: "In behandeling",
        open: true,
        balance_due_cents: 150050 + 22508 + 2386 + 211 + 30,
      });
      await cases.bookPayment({
        caseNumber: order.case.case_number as string,
        amountCents: 10_000,
        paymentDate: "2026-11-20",
      });
      const paid = await (await t.request(`/orders/${order.id}`, bearer(live))).json();
      expect(paid.case.balance_due_cents).toBe(175185 - 10_000);
      await cases.setStatus({ caseNumber: order.case.case_number as string, status: "Gesloten" });
      expect((await (await t.request(`/orders/${order.id}`, bearer(live))).json()).case).toMatchObject({
        status: "Gesloten",
        open: false,
      });
    });

    it("404 alike for an unknown, a malformed, another organisation's and (visibility own) another key's id", async () => {
      const order = await submit(live, orderBody());
      const bodies = [];
      for (const [key, id] of [
        [live, "ord_0000000000000000"],
        [live, "ord_NOT-AN-ID"],
        [other, order.id],
        [own, order.id],
      ] as const) {
        const res = await t.request(`/orders/${id}`, bearer(key));
        expect(res.status).toBe(404);
        const { type, title, status, code, detail } = await res.json();
        bodies.push({ type, title, status, code, detail });
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(bodies[0]).toMatchObject({ status: 404, code: "not_found" });
    });

    it("hold, withdraw and payments → 202 OrderAction, a task on the case, the actions newest first", async () => {
      const order = await submit(live, orderBody({ debtors: [business("ACT-1")] }));
      advance();
      const hold = await t.request(
        `/orders/${order.id}/hold`,
        json(live, { reason: "Regeling voorgesteld" }),
      );
      expect(hold.status).toBe(202);
      const held = await hold.json();
      check("/orders/{orderId}/hold", "post", 202, held);
      expect(held).toEqual({
        id: order.id,
        object: "order_action",
        action: "hold",
        status: "requested",
        case: { case_number: order.case.case_number },
        message:
          "Het verzoek om de incasso te pauzeren is als taak in het dossier gezet voor een behandelaar.",
        created_at: now().toISOString(),
      });
      advance();
      const withdraw = await t.request(`/orders/${order.id}/withdraw`, {
        method: "POST",
        headers: { authorization: `Bearer ${live}` },
      });
      expect(withdraw.status).toBe(202);
      advance();
      const pay = await t.request(`/orders/${order.id}/payments`, json(live, { amount_cents: 2500 }));
      expect(pay.status).toBe(202);
      const payment = await pay.json();
      check("/orders/{orderId}/payments", "post", 202, payment);
      expect(payment).toMatchObject({ action: "payments", amount_cents: 2500, payment_date: "2026-11-21" });
      const status = await (await t.request(`/orders/${order.id}`, bearer(live))).json();
      expect(status.actions).toEqual([
        {
          action: "payments",
          status: "requested",
          reason: null,
          amount_cents: 2500,
          created_at: payment.created_at,
        },
        { action: "withdraw", status: "requested", reason: null, created_at: expect.any(String) },
        { action: "hold", status: "requested", reason: "Regeling voorgesteld", created_at: held.created_at },
      ]);
      const tasks = (await cases.getCase({ caseNumber: order.case.case_number as string }))?.tasks ?? [];
      expect(tasks.map((x) => [x.kind, x.status, x.amountCents, x.paymentDate])).toEqual([
        ["hold", "open", null, null],
        ["withdraw", "open", null, null],
        ["payments", "open", 2500, "2026-11-21"],
      ]);
      expect(tasks[0]?.instructions).toBe(
        `De opdrachtgever vraagt de incasso van opdracht ${order.id} te pauzeren.\nToelichting van de opdrachtgever: Regeling voorgesteld`,
      );
      expect(tasks[2]?.instructions).toContain("€ 25,00");
    });

    it("control request refusals: 409 for a test-mode order, 422 for a bad amount or reason, 404 for unknown", async () => {
      const testOrder = await submit(test, orderBody());
      const conflict = await t.request(`/orders/${testOrder.id}/hold`, json(test, {}));
      expect(conflict.status).toBe(409);
      const problem = await conflict.json();
      check("/orders/{orderId}/hold", "post", 409, problem);
      expect(problem.code).toBe("order_has_no_case");
      const order = await submit(live, orderBody());
      const zero = await t.request(`/orders/${order.id}/payments`, json(live, { amount_cents: 0 }));
      expect(zero.status).toBe(422);
      expect(await zero.json()).toMatchObject({
        code: "validation_error",
        errors: [{ field: "amount_cents", code: "too_small" }],
      });
      const missing = await t.request(
        `/orders/${order.id}/payments`,
        json(live, { payment_date: "2026-11-20" }),
      );
      expect(await missing.json()).toMatchObject({ errors: [{ field: "amount_cents", code: "required" }] });
      const long = await t.request(`/orders/${order.id}/withdraw`, json(live, { reason: "x".repeat(1001) }));
      expect(long.status).toBe(422);
      expect(await long.json()).toMatchObject({ errors: [{ field: "reason", code: "too_long" }] });
      expect(
        (await t.request(`/orders/${order.id}/hold`, json(live, { reason: "x".repeat(1000) }))).status,
      ).toBe(202);
      expect(
        (await t.request("/orders/ord_0000000000000000/payments", json(live, { amount_cents: 1 }))).status,
      ).toBe(404);
    });

    it("refuses what the database could not hold, and a test key steering a live order, before any task is placed", async () => {
      const order = await submit(live, orderBody());
      const caseNumber = order.case.case_number as string;
      const tasksBefore = (await cases.getCase({ caseNumber }))?.tasks.length;
      // The NUL character in a body field, and a date of year 0: 422 on the field, not a 502.
      const nul = await t.request(`/orders/${order.id}/hold`, json(live, { reason: "a\u0000b" }));
      expect(nul.status).toBe(422);
      expect(await nul.json()).toMatchObject({
        code: "validation_error",
        errors: [{ field: "reason", code: "invalid_character" }],
      });
      // An unpaired surrogate likewise, on every control request.
      for (const [action, body] of [
        ["hold", { reason: "a\ud800" }],
        ["withdraw", { reason: "\udc00" }],
        ["payments", { amount_cents: 100, reason: "x\udbffy" }],
      ] as const) {
        const res = await t.request(`/orders/${order.id}/${action}`, json(live, body));
        expect(res.status, action).toBe(422);
        expect(await res.json()).toMatchObject({
          code: "validation_error",
          errors: [{ field: "reason", code: "invalid_character" }],
        });
      }
      const year0 = await t.request(
        `/orders/${order.id}/payments`,
        json(live, { amount_cents: 100, payment_date: "0000-01-01" }),
      );
      expect(year0.status).toBe(422);
      expect(await year0.json()).toMatchObject({
        errors: [{ field: "payment_date", code: "invalid_format" }],
      });
      // A test key that can read the organisation's live orders cannot steer them.
      const reader = (
        await issueApiKey(store, { organisation: org, mode: "test", visibility: "organisation", ...limits })
      ).key;
      expect((await t.request(`/orders/${order.id}`, bearer(reader))).status).toBe(200);
      const steer = await t.request(`/orders/${order.id}/withdraw`, json(reader, {}));
      expect(steer.status).toBe(409);
      const problem = await steer.json();
      check("/orders/{orderId}/withdraw", "post", 409, problem);
      expect(problem.code).toBe("test_key_on_live_order");
      expect((await cases.getCase({ caseNumber }))?.tasks.length).toBe(tasksBefore);
      expect((await (await t.request(`/orders/${order.id}`, bearer(live))).json()).actions).toEqual([]);
    });

    it("an absent body counts as {} on hold, withdraw and payments; content that is not JSON is 415", async () => {
      const order = await submit(live, orderBody({ debtors: [business("NOBODY-1")] }));
      const caseNumber = order.case.case_number as string;
      const post = (action: string, headers: Record<string, string> = {}, body?: string) =>
        t.request(`/orders/${order.id}/${action}`, {
          method: "POST",
          headers: { authorization: `Bearer ${live}`, ...headers },
          ...(body === undefined ? {} : { body }),
        });
      // Spec POST /orders/{orderId}/payments: 422 for a missing amount; no body at all is {}.
      const contentTypes: Record<string, string>[] = [
        {},
        { "content-type": "application/json" },
        { "content-type": "text/plain" },
      ];
      for (const headers of contentTypes) {
        const pay = await post("payments", headers);
        expect(pay.status).toBe(422);
        expect(pay.headers.get("content-type")).toBe("application/problem+json");
        const problem = await pay.json();
        check("/orders/{orderId}/payments", "post", 422, problem);
        expect(problem).toMatchObject({
          status: 422,
          code: "validation_error",
          errors: [{ field: "amount_cents", code: "required", message: "is required" }],
        });
        expect(problem.errors).toHaveLength(1);
      }
      // hold and withdraw go ahead without a body, with or without a Content-Type.
      advance();
      const hold = await post("hold");
      expect(hold.status).toBe(202);
      expect(await hold.json()).toMatchObject({ action: "hold", status: "requested" });
      advance();
      const withdraw = await post("withdraw", { "content-type": "text/plain" });
      expect(withdraw.status).toBe(202);
      expect(await withdraw.json()).toMatchObject({ action: "withdraw", status: "requested" });
      // A body that is there must be JSON.
      for (const [action, body] of [
        ["payments", "amount_cents=100"],
        ["hold", "reason=later"],
        ["withdraw", '{"reason":"x"}'],
      ] as const) {
        const res = await post(action, { "content-type": "application/x-www-form-urlencoded" }, body);
        expect(res.status).toBe(415);
        expect((await res.json()).code).toBe("unsupported_media_type");
      }
      const missingType = await post("payments", {}, '{"amount_cents":100}');
      expect(missingType.status).toBe(415);
      const tasks = (await cases.getCase({ caseNumber }))?.tasks ?? [];
      expect(tasks.map((x) => [x.kind, x.reason])).toEqual([
        ["hold", null],
        ["withdraw", null],
      ]);
    });

    it("no body in any framing counts as {}: Content-Length 0, neither Content-Length nor Transfer-Encoding, an empty chunked or streamed body", async () => {
      const order = await submit(live, orderBody({ debtors: [business("NOBODY-2")] }));
      const caseNumber = order.case.case_number as string;
      const tasksBefore = (await cases.getCase({ caseNumber }))?.tasks.length ?? 0;
      const path = (action: string) => `/orders/${order.id}/${action}`;
      // How "no body" arrives differs per transport: over a socket it is framed by the headers
      // (RFC 9112 §6.3: no Content-Length and no Transfer-Encoding on a request means length 0);
      // through a fetch handler or Azure Functions it is a null body or an empty one.
      type Sent = { status: number; body: { code?: string; errors?: unknown[]; action?: string } };
      const framings: [string, (action: string) => Promise<Sent>][] = [];
      const a = t.address;
      if (a) {
        const socket =
          (head: string, body = "") =>
          async (action: string) => {
            const res = await raw(
              a,
              `POST ${a.prefix}${path(action)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${live}\r\n${head}Connection: close\r\n\r\n${body}`,
            );
            return { status: res.status, body: JSON.parse(res.body) };
          };
        framings.push(
          ["without Content-Length or Transfer-Encoding", socket("")],
          ["Content-Length: 0", socket("Content-Length: 0\r\n")],
          [
            "Content-Length: 0 with Content-Type: text/plain",
            socket("Content-Length: 0\r\nContent-Type: text/plain\r\n"),
          ],
          // The last chunk right away: a chunked body with no content (RFC 9112 §7.1).
          [
            "an empty chunked body",
            socket("Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n", "0\r\n\r\n"),
          ],
        );
      } else {
        const fetched = (init: RequestInit) => async (action: string) => {
          const res = await t.request(path(action), {
            method: "POST",
            ...init,
            headers: { authorization: `Bearer ${live}`, ...((init.headers as Record<string, string>) ?? {}) },
          });
          return { status: res.status, body: await res.json() };
        };
        framings.push(
          ["a null body", fetched({})],
          ["an empty body of bytes", fetched({ body: new Uint8Array(0) })],
          [
            "an empty body with Content-Type: application/json",
            fetched({ body: "", headers: { "content-type": "application/json" } }),
          ],
        );
        if (transport === inProcessTransport) {
          const empty = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });
          framings.push([
            "an empty stream",
            (action) => fetched({ body: empty(), duplex: "half" } as RequestInit)(action),
          ]);
        }
      }
      for (const [framing, send] of framings) {
        const pay = await send("payments");
        expect(pay.status, framing).toBe(422);
        expect(pay.body, framing).toMatchObject({
          code: "validation_error",
          errors: [{ field: "amount_cents", code: "required", message: "is required" }],
        });
        expect(pay.body.errors, framing).toHaveLength(1);
        advance();
        const hold = await send("hold");
        expect(hold.status, framing).toBe(202);
        expect(hold.body, framing).toMatchObject({ action: "hold", status: "requested" });
      }
      const tasks = (await cases.getCase({ caseNumber }))?.tasks ?? [];
      expect(tasks.length - tasksBefore).toBe(framings.length);
    });

    it("GET /orders refuses a forged cursor with an impossible time and a filter with the NUL character", async () => {
      const forge = (createdAt: string) => {
        const payload = Buffer.from(`v1|${createdAt}|ord_0123456789abcdef`, "utf8");
        const sum = createHash("sha256").update("incasso-order-cursor").update(payload).digest();
        return Buffer.concat([payload, sum.subarray(0, 6)]).toString("base64url");
      };
      for (const at of ["2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "2026-01-01T00:00:00+99:99"]) {
        const res = await t.request(`/orders?cursor=${forge(at)}`, bearer(live));
        expect(res.status, at).toBe(422);
        expect(await res.json()).toMatchObject({ errors: [{ field: "cursor", code: "invalid_cursor" }] });
      }
      const real = await t.request(`/orders?cursor=${forge("2026-01-01T00:00:00Z")}`, bearer(live));
      expect(real.status).toBe(200);
      for (const query of ["reference=a%00b", "customer_number=%00", "case_number=x%00"]) {
        const res = await t.request(`/orders?${query}`, bearer(live));
        expect(res.status, query).toBe(400);
        expect(await res.json()).toMatchObject({ code: "malformed_url" });
      }
    });
  },
);
