import { describe, expect, it } from "vitest";
import type { CaseSystem } from "../case-system-port.js";
import { isIncassoError } from "../incasso-error.js";
import type { NormalisedOrder } from "../orders/normalised-order.js";
import type { Principal } from "../principal.js";
import type { IncassoStore, OrderRecord } from "../store-port.js";
import { createOrderEngine } from "./order-engine.js";
import { dispatchAfterHandlers } from "./order-handlers.js";
import type { OrderPlacedEvent } from "./order-hooks.js";
import { resolveOrderHooks, runActionRules, runOrderRules } from "./order-rules.js";
import { submitOrder } from "./submit-order.js";

const principal: Principal = {
  keyId: "usr_1",
  organisationId: "org_0123456789abcdef",
  organisationName: "Acme BV",
  creditorName: "Acme BV",
  mode: "test",
  visibility: "own",
  creditorManagement: false,
  rateLimits: { perMinute: 30, perDay: 500 },
};
const input = {
  order: { invoices: [] } as unknown as NormalisedOrder,
  principal,
  creditor: { id: null, name: "Acme BV" },
  now: new Date("2026-11-21T10:00:00Z"),
};

describe("resolveOrderHooks", () => {
  it("merges several sets in order and keeps every declared code", () => {
    const a = () => undefined;
    const b = () => undefined;
    const hooks = resolveOrderHooks([
      { codes: { too_small: "Under € 25." }, orderRules: [a] },
      { codes: { stop_list: "On the stop list." }, orderRules: [b] },
    ]);
    expect(hooks.orderRules).toEqual([a, b]);
    expect([...hooks.codes]).toEqual([
      ["too_small", "Under € 25."],
      ["stop_list", "On the stop list."],
    ]);
  });

  it("refuses a malformed or twice declared code, a code without words, and a rule that is no function", () => {
    const cases: [unknown, string][] = [
      [
        { codes: { "Too-Small": "x" } },
        'orderHooks: code "Too-Small" must be lower-case letters, digits and _.',
      ],
      [[{ codes: { twice: "x" } }, { codes: { twice: "y" } }], 'orderHooks: code "twice" is declared twice.'],
      [{ codes: { silent: " " } }, 'orderHooks: code "silent" needs a description.'],
      [{ orderPlaced: ["nope"] }, "orderHooks: every entry of orderPlaced must be a function."],
    ];
    for (const [hooks, message] of cases) {
      expect(() => resolveOrderHooks(hooks as never)).toThrow(
        expect.objectContaining({ name: "TypeError", code: "invalid_order_hooks", message }),
      );
    }
  });
});

describe("runOrderRules and runActionRules", () => {
  it("collects warnings in order, with invoice_number null when not given", async () => {
    const hooks = resolveOrderHooks({
      orderRules: [
        () => ({ warnings: [{ code: "first_one", message: "Eerste." }] }),
        async () => undefined,
        () => ({ warnings: [{ code: "second_one", message: "Tweede.", invoice_number: "F-1" }] }),
      ],
    });
    expect(await runOrderRules(hooks, input)).toEqual([
      { code: "first_one", message: "Eerste.", invoice_number: null },
      { code: "second_one", message: "Tweede.", invoice_number: "F-1" },
    ]);
  });

  it("throws the first refusal as a 422 error with the host's code, and runs no later rule", async () => {
    let later = false;
    const hooks = resolveOrderHooks({
      codes: { too_small: "Under € 25." },
      orderRules: [
        () => ({
          refuse: {
            code: "too_small",
            message: "Te klein.",
            errors: [{ field: "invoices[0].amount_cents", code: "min", message: "≥ 2500" }],
          },
        }),
        () => {
          later = true;
          return undefined;
        },
      ],
    });
    const error = await runOrderRules(hooks, input).catch((e: unknown) => e);
    expect(isIncassoError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "too_small",
      message: "Te klein.",
      status: 422,
      hostCode: true,
      errors: [{ field: "invoices[0].amount_cents", code: "min", message: "≥ 2500" }],
    });
    expect(later).toBe(false);
  });

  it("an undeclared code or a warning without a message is the host's mistake, a plain Error", async () => {
    const undeclared = resolveOrderHooks({
      actionRules: [() => ({ refuse: { code: "mine", message: "No." } })],
    });
    await expect(
      runActionRules(undeclared, {
        orderId: "ord_0123456789abcdef",
        caseNumber: "2026-000001",
        request: { action: "hold", reason: null },
        principal,
        now: input.now,
      }),
    ).rejects.toThrowError(
      'An order rule refused with code "mine", which orderHooks.codes does not declare.',
    );
    const bad = resolveOrderHooks({ orderRules: [() => ({ warnings: [{ code: "ok_code", message: "" }] })] });
    await expect(runOrderRules(bad, input)).rejects.toThrowError(
      "An order rule added a warning without a code (lower-case letters, digits, _) or a message.",
    );
  });
});

describe("dispatchAfterHandlers", () => {
  it("starts after the caller's turn, runs every handler, and logs what throws or rejects", async () => {
    const logged: [string, unknown][] = [];
    const ran: string[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    dispatchAfterHandlers(
      [
        function throws() {
          ran.push("throws");
          throw new Error("sync");
        },
        async function rejects() {
          ran.push("rejects");
          throw new Error("async");
        },
        () => {
          ran.push("last");
          done();
        },
      ],
      { n: 1 },
      { warn: (message, details) => logged.push([message, details]) },
      "order handler",
      { orderId: "ord_1" },
    );
    expect(ran).toEqual([]);
    await finished;
    await Promise.resolve();
    expect(ran).toEqual(["throws", "rejects", "last"]);
    expect(logged).toEqual([
      [
        "order handler failed; the request it follows stands",
        { orderId: "ord_1", handler: "throws", error: "sync" },
      ],
      [
        "order handler failed; the request it follows stands",
        { orderId: "ord_1", handler: "rejects", error: "async" },
      ],
    ]);
  });
});

describe("submitOrder and the after-handlers", () => {
  it("runs them again, replayed, when a retry finds its order stored (at least once)", async () => {
    const stored: OrderRecord = {
      id: "ord_0123456789abcdef",
      organisationId: principal.organisationId,
      keyId: principal.keyId,
      mode: "test",
      type: "pre-incasso",
      reference: "R-1",
      caseNumber: null,
      caseNew: true,
      creditorId: null,
      debtors: [{ name: "Voorbeeld B.V.", customer_number: "K-1" }],
      invoiceCount: 1,
      totalAmountCents: 125000,
      metadata: {},
      udfFields: {},
      warnings: [],
      createdAt: new Date("2026-11-21T10:00:00Z"),
    };
    const store = {
      orders: { findById: async () => stored },
      pendingHandlers: { remove: async () => {} },
    } as unknown as IncassoStore;
    let seen: (event: OrderPlacedEvent) => void = () => {};
    const event = new Promise<OrderPlacedEvent>((resolve) => {
      seen = resolve;
    });
    const engine = createOrderEngine({
      store,
      caseSystem: {} as CaseSystem,
      hooks: { orderPlaced: [(e) => seen(e)] },
    });
    const order = await submitOrder(engine, principal, {}, { orderId: stored.id });
    expect(await event).toEqual({ order, principal, replayed: true });
    expect(order.id).toBe("ord_0123456789abcdef");
  });
});
