import {
  createOrderEngine,
  issueApiKey,
  principalOfKey,
  requestOrderAction,
  submitOrder,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import { createCaseReporter } from "./case-reporter.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

// What a host's case system reports back: a control request's outcome and case events, each with
// its webhook event in one transaction through the outbox (spec Events).
let store: SqlStore;
let organisationId: string;
let principal: ReturnType<typeof principalOfKey>;
beforeAll(async () => {
  store = await openCaseSystemStore();
  const key = await issueApiKey(store, { organisation: "Reporter BV", mode: "live" });
  organisationId = key.record.organisationId;
  principal = principalOfKey(key.record);
});
afterAll(() => store.close());

let n = 0;
async function placeOrder() {
  n++;
  const engine = createOrderEngine({
    store,
    caseSystem: createBuiltInCaseSystem({ store }),
  });
  const order = await submitOrder(engine, principal, {
    type: "incasso",
    reference: `REP-${n}`,
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        customer_number: `REP-${n}`,
        address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `F-${n}`, invoice_date: "2026-10-01", payment_term_days: 14, amount_cents: 10_000 },
    ],
  });
  return { engine, order };
}

async function eventsOf(orderId: string) {
  const { rows } = await store.database.query<{ type: string; payload: string }>(
    "SELECT type, payload FROM webhook_events WHERE payload::json->'data'->>'order_id' = $1 ORDER BY created_at, id",
    [orderId],
  );
  return rows.map((r) => ({ type: r.type, data: (JSON.parse(r.payload) as { data: unknown }).data }));
}

describe("createCaseReporter", () => {
  it("records a control request's outcome with the note and sends case.updated once", async () => {
    const { engine, order } = await placeOrder();
    await requestOrderAction(engine, principal, order.id, "hold", { reason: "Regeling" });
    // The task id the port's addTask received: the control request's id.
    const [action] = await store.orders.listActions(organisationId, order.id);
    if (action === undefined) throw new Error("no control request stored");
    const reporter = createCaseReporter({ store });
    expect(
      await reporter.taskOutcome({ organisationId, taskId: action.id, outcome: "done", note: "Gepauzeerd." }),
    ).toEqual({ changed: true });
    expect(await reporter.taskOutcome({ organisationId, taskId: action.id, outcome: "done" })).toEqual({
      changed: false,
    });
    await expect(
      reporter.taskOutcome({ organisationId, taskId: action.id, outcome: "rejected" }),
    ).rejects.toMatchObject({ code: "task_not_open" });
    await expect(
      reporter.taskOutcome({ organisationId: "org_0000000000000000", taskId: action.id, outcome: "done" }),
    ).rejects.toMatchObject({ code: "task_not_found" });
    const { rows } = await store.database.query<{ status: string; outcome_note: string | null }>(
      "SELECT status, outcome_note FROM order_actions WHERE id = $1",
      [action.id],
    );
    expect(rows[0]).toEqual({ status: "done", outcome_note: "Gepauzeerd." });
    expect(await eventsOf(order.id)).toEqual([
      {
        type: "case.updated",
        data: {
          order_id: order.id,
          case_number: order.case.case_number,
          reference: order.reference,
          case_event: "case_tasks",
        },
      },
    ]);
  });

  it("sends each case event with the order's case number and reference", async () => {
    const { order } = await placeOrder();
    const reporter = createCaseReporter({ store });
    for (const kind of [
      "payment_booked",
      "correspondence_sent",
      "invoice_changed",
      "case_updated",
      "case_closed",
    ] as const) {
      await reporter.caseEvent({
        organisationId,
        orderId: order.id,
        kind,
        ...(kind === "payment_booked" ? { caseEvent: "betaling" } : {}),
      });
    }
    const events = await eventsOf(order.id);
    expect(events.map((e) => e.type)).toEqual([
      "payment.received",
      "correspondence.sent",
      "invoice.updated",
      "case.updated",
      "case.closed",
    ]);
    expect(events[0]?.data).toEqual({
      order_id: order.id,
      case_number: order.case.case_number,
      reference: order.reference,
      case_event: "betaling",
    });
    await expect(
      reporter.caseEvent({ organisationId, orderId: "ord_0000000000000000", kind: "case_closed" }),
    ).rejects.toMatchObject({ code: "order_not_on_case" });
  });
});
