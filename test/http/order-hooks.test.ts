import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import {
  type ActionRequestedEvent,
  issueApiKey,
  type OrderHooks,
  type OrderPlacedEvent,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, json, orderBody } from "./orders-fixtures.js";

// A host's order hooks (decision orders-host-hooks): rules after validation and before placement
// that refuse with a code of the host's own (in the code table and the OpenAPI document) or warn,
// in test mode too; handlers after the order or control request is stored, which neither fail nor
// delay the request. On every transport, on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `order_hooks_${randomBytes(6).toString("hex")}`;
      return { store: await openCaseSystemStore({ databaseUrl: url, schema }), schema };
    },
  });
}

/** Events that arrive later, and a way to wait for one without a timer. */
function inbox<E>(idOf: (event: E) => string) {
  const arrived: E[] = [];
  const waiting = new Map<string, (event: E) => void>();
  return {
    arrived,
    add(event: E) {
      arrived.push(event);
      waiting.get(idOf(event))?.(event);
    },
    next(id: string): Promise<E> {
      const found = arrived.find((e) => idOf(e) === id);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.set(id, resolve));
    },
  };
}

describe.each(targets)("order hooks on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  let api: ReturnType<typeof fixtureApi>;
  const warned: { message: string; details: Record<string, unknown> | undefined }[] = [];
  const placed = inbox<OrderPlacedEvent>((e) => e.order.id);
  const requested = inbox<ActionRequestedEvent>((e) => `${e.orderId}:${e.action.action}`);
  // A handler that waits for the test to let it go (a gate per order reference): were the request
  // waiting for it, the request would never be answered and the test would fail on its time-out.
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (reference: string) => {
    let found = gates.get(reference);
    if (found === undefined) {
      let open: () => void = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      found = { opened, open };
      gates.set(reference, found);
    }
    return found;
  };
  const gatePassed = inbox<{ id: string }>((e) => e.id);
  const hooks: OrderHooks = {
    codes: {
      amount_below_minimum: "An invoice is under the agency's minimum of € 25.",
      withdraw_by_phone: "The agency takes a withdrawal by phone only.",
    },
    orderRules: [
      ({ order }) => {
        const low = order.invoices.findIndex((i) => i.amount_cents < 2500);
        return low < 0
          ? undefined
          : {
              refuse: {
                code: "amount_below_minimum",
                message: "Claims under € 25 are not taken.",
                errors: [
                  {
                    field: `invoices[${low}].amount_cents`,
                    code: "below_minimum",
                    message: "at least 2500 cents",
                  },
                ],
              },
            };
      },
      ({ order }) =>
        order.reference?.startsWith("WARN")
          ? {
              warnings: [
                {
                  code: "invoice_sent_before",
                  message: "Factuur F-1 is eerder ingediend.",
                  invoice_number: "F-1",
                },
              ],
            }
          : undefined,
      ({ order }) =>
        order.reference?.startsWith("UNDECLARED")
          ? { refuse: { code: "not_declared", message: "A code nobody declared." } }
          : undefined,
    ],
    orderPlaced: [
      function record(event) {
        placed.add(event);
      },
      function failing(event) {
        if (event.order.reference?.startsWith("BOOM")) throw new Error("the CRM is down");
      },
      async function gated(event) {
        const reference = event.order.reference;
        if (!reference?.startsWith("GATE")) return;
        await gate(reference).opened;
        gatePassed.add({ id: event.order.id });
      },
    ],
    actionRules: [
      ({ request }) =>
        request.action === "withdraw"
          ? { refuse: { code: "withdraw_by_phone", message: "Call the agency to withdraw." } }
          : undefined,
    ],
    actionRequested: [(event) => requested.add(event)],
  };
  beforeAll(async () => {
    ({ store, schema } = await target.open());
    api = fixtureApi({
      store,
      orderHooks: hooks,
      pdfEngine: undefined,
      logger: {
        info() {},
        warn: (message, details) => warned.push({ message, details }),
        error() {},
      },
    });
  });
  afterAll(async () => {
    for (const g of gates.values()) g.open();
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });

  it("the code table of the OpenAPI document lists the host's codes as 422", () => {
    const doc = api.openapi() as {
      components: { schemas: Record<string, { properties: Record<string, { description: string }> }> };
    };
    const table = doc.components.schemas.Problem?.properties.code?.description ?? "";
    expect(table).toContain(
      "| `amount_below_minimum` | 422 | An invoice is under the agency's minimum of € 25. |",
    );
    expect(table).toContain("| `withdraw_by_phone` | 422 | The agency takes a withdrawal by phone only. |");
  });

  it("a host code that is one of the API's own is refused when the API is made", () => {
    expect(() => fixtureApi({ store, orderHooks: { codes: { not_found: "Mine." } } })).toThrowError(
      'orderHooks: code "not_found" is one of the API\'s own codes; choose a name of your own.',
    );
  });

  describe.each(transports)("over $name", (transport) => {
    let t: RunningTransport;
    let live: string;
    let test: string;
    let check: ReturnType<typeof responseValidator>;
    beforeAll(async () => {
      t = await transport.start(api);
      check = responseValidator(api.openapi());
      const organisation = `Hooks ${target.name} ${transport.name}`;
      const limits = { perMinute: 1000, perDay: 10_000 };
      live = (await issueApiKey(store, { organisation, mode: "live", ...limits })).key;
      test = (await issueApiKey(store, { organisation, mode: "test", ...limits })).key;
    });
    afterAll(() => t.close());
    const low = (reference: string) => {
      const body = orderBody({ reference });
      (body.invoices[1] as { amount_cents: number }).amount_cents = 2000;
      return body;
    };

    it("a rule refuses with 422 and the host's code, with a live key and with a test key, storing nothing", async () => {
      for (const key of [live, test]) {
        const res = await t.request("/orders", json(key, low(`LOW-${key.slice(4, 8)}`)));
        expect(res.status).toBe(422);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).toMatchObject({
          status: 422,
          code: "amount_below_minimum",
          detail: "Claims under € 25 are not taken.",
          errors: [
            { field: "invoices[1].amount_cents", code: "below_minimum", message: "at least 2500 cents" },
          ],
        });
        check("/orders", "post", 422, body);
      }
      const list = (await (await t.request("/orders", bearer(live))).json()) as {
        data: { reference: string }[];
      };
      expect(list.data.filter((o) => o.reference.startsWith("LOW-"))).toEqual([]);
    });

    it("a rule's warning is on the order, before test mode's", async () => {
      const res = await t.request("/orders", json(test, orderBody({ reference: "WARN-1" })));
      expect(res.status).toBe(201);
      const order = (await res.json()) as { warnings: { code: string; invoice_number: string | null }[] };
      expect(order.warnings.slice(-2)).toEqual([
        { code: "invoice_sent_before", message: "Factuur F-1 is eerder ingediend.", invoice_number: "F-1" },
        expect.objectContaining({ code: "test_mode" }),
      ]);
    });

    it("a refusal with a code nobody declared is the host's mistake: 500, never the code", async () => {
      const res = await t.request("/orders", json(live, orderBody({ reference: "UNDECLARED-1" })));
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe("internal_error");
    });

    it("handlers see the stored order as the client got it, live and test", async () => {
      for (const [key, mode] of [
        [live, "live"],
        [test, "test"],
      ] as const) {
        const res = await t.request("/orders", json(key, orderBody({ reference: `PLACED-${mode}` })));
        expect(res.status).toBe(201);
        const order = (await res.json()) as { id: string };
        const event = await placed.next(order.id);
        expect(event.order).toEqual(order);
        expect(event.replayed).toBe(false);
        expect(event.principal.mode).toBe(mode);
      }
    });

    it("a handler that throws is logged and the client gets its 201", async () => {
      const res = await t.request("/orders", json(live, orderBody({ reference: "BOOM-1" })));
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      await placed.next(id);
      // The failing handler runs right after the recording one, in the same turn.
      expect(warned).toContainEqual({
        message: "order handler failed; the request it follows stands",
        details: { orderId: id, handler: "failing", error: "the CRM is down" },
      });
    });

    it("a handler still at work does not hold up the answer", async () => {
      const reference = `GATE-${transport.name}`;
      const res = await t.request("/orders", json(live, orderBody({ reference })));
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      expect(gatePassed.arrived.some((e) => e.id === id)).toBe(false);
      gate(reference).open();
      expect(await gatePassed.next(id)).toEqual({ id });
    });

    it("control requests: a rule refuses withdraw with its code; a hold is stored and handled", async () => {
      const res = await t.request("/orders", json(live, orderBody({ reference: "STEER-1" })));
      const { id } = (await res.json()) as { id: string };
      const withdraw = await t.request(`/orders/${id}/withdraw`, json(live, { reason: "paid" }));
      expect(withdraw.status).toBe(422);
      const refused = (await withdraw.json()) as Record<string, unknown>;
      expect(refused).toMatchObject({ code: "withdraw_by_phone", detail: "Call the agency to withdraw." });
      check("/orders/{orderId}/withdraw", "post", 422, refused);
      const status = (await (await t.request(`/orders/${id}`, bearer(live))).json()) as {
        actions: unknown[];
      };
      expect(status.actions).toEqual([]);
      const hold = await t.request(`/orders/${id}/hold`, json(live, { reason: "talking" }));
      expect(hold.status).toBe(202);
      const action = (await hold.json()) as { id: string; action: string };
      const event = await requested.next(`${id}:hold`);
      expect(event.action).toEqual(action);
      expect(event.replayed).toBe(false);
    });
  });
});
