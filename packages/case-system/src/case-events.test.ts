import {
  type CaseOrderInput,
  createOrderEngine,
  getOrderStatus,
  issueApiKey,
  principalOfKey,
  requestOrderAction,
  submitOrder,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import {
  businessDebtor,
  caseInvoice,
  caseOrderInput,
  withItems,
} from "./internal/testing/case-order-input.js";
import { giveLetterDetails } from "./internal/testing/letter-details.js";
import { createLetterRunner } from "./letter-runner.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

// Every handler action writes its webhook event into the outbox in the transaction of the change
// (decision case-system-webhook-events); submission itself writes none, except a merged order's
// invoices, and the 14-day letter of a pre-incasso order once a letter runner has made it.
let store: SqlStore;
let organisationId: string;
let key: Awaited<ReturnType<typeof issueApiKey>>;
beforeAll(async () => {
  store = await openCaseSystemStore();
  key = await issueApiKey(store, { organisation: "Events BV", mode: "live" });
  organisationId = key.record.organisationId;
  await giveLetterDetails(store.database, organisationId);
});
afterAll(() => store.close());

const at = new Date("2026-11-21T10:00:00.000Z");
let n = 0;
function order(customerNumber: string, type: CaseOrderInput["type"] = "incasso"): CaseOrderInput {
  n++;
  return caseOrderInput({
    orderId: `ord_${(0xe000 + n).toString(16).padStart(16, "0")}`,
    organisationId,
    creditor: { id: null, name: "Events BV" },
    type,
    reference: `E-${n}`,
    debtors: [businessDebtor("Voorbeeld B.V.", customerNumber)],
    at,
  });
}
const invoice = caseInvoice;

async function eventsOf(caseNumber: string) {
  const { rows } = await store.database.query<{ type: string; payload: string; state: string }>(
    "SELECT type, payload, state FROM webhook_events WHERE payload::json->'data'->>'case_number' = $1 ORDER BY created_at, id",
    [caseNumber],
  );
  return rows.map((r) => {
    const body = JSON.parse(r.payload) as { type: string; data: Record<string, unknown> };
    return { type: body.type, data: body.data, state: r.state };
  });
}

describe("webhook events of the built-in case system", () => {
  it("sends none for a new case, and one per handler action with the opening order's id and reference", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const first = order("EV-1");
    const { caseNumber } = await cases.placeOnCase(withItems(first, [invoice("F-1")]));
    expect(await eventsOf(caseNumber)).toEqual([]);

    await cases.setStatus({ caseNumber, status: "In behandeling" });
    await cases.bookPayment({ caseNumber, amountCents: 5000, paymentDate: "2026-11-20" });
    await cases.addNote({ caseNumber, text: "Gebeld met debiteur." });
    await cases.closeCase({ caseNumber });
    await cases.closeCase({ caseNumber }); // closing a closed case changes nothing
    const data = (caseEvent: string) => ({
      order_id: first.orderId,
      case_number: caseNumber,
      reference: first.reference,
      case_event: caseEvent,
    });
    expect(await eventsOf(caseNumber)).toEqual([
      { type: "case.updated", data: data("case_status"), state: "no_endpoint" },
      { type: "payment.received", data: data("case_payments"), state: "no_endpoint" },
      { type: "case.closed", data: data("case_status"), state: "no_endpoint" },
    ]);
  });

  it("sends invoice.updated for each invoice a merged order adds, naming the merging order", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const first = order("EV-2");
    const { caseNumber } = await cases.placeOnCase(withItems(first, [invoice("F-1")]));
    const second = order("EV-2");
    expect(await cases.placeOnCase(withItems(second, [invoice("F-2"), invoice("F-3")]))).toMatchObject({
      caseNumber,
      caseNew: false,
    });
    // A repeat after a crash adds nothing and sends nothing.
    await cases.placeOnCase(withItems(second, [invoice("F-2"), invoice("F-3")]));
    const merged = {
      order_id: second.orderId,
      case_number: caseNumber,
      reference: second.reference,
      case_event: "case_invoices",
    };
    expect(await eventsOf(caseNumber)).toEqual([
      { type: "invoice.updated", data: merged, state: "no_endpoint" },
      { type: "invoice.updated", data: merged, state: "no_endpoint" },
    ]);
  });

  it("writes no event when webhookEvents is false, and none when the change rolls back", async () => {
    const quiet = createBuiltInCaseSystem({ store, now: () => at, webhookEvents: false });
    const first = order("EV-3");
    const { caseNumber } = await quiet.placeOnCase(withItems(first));
    await quiet.setStatus({ caseNumber, status: "In behandeling" });
    expect(await eventsOf(caseNumber)).toEqual([]);
    const failing = createBuiltInCaseSystem({
      store,
      onChange: async () => {
        throw new Error("listener down");
      },
    });
    await expect(failing.setStatus({ caseNumber, status: "Aangehouden" })).rejects.toThrow("listener down");
    expect(await eventsOf(caseNumber)).toEqual([]);
    expect((await quiet.getCase({ caseNumber }))?.status).toBe("In behandeling");
  });
});

describe("control requests, tasks and the order's action statuses", () => {
  it("moves the action to done or rejected with its task, books a reported payment against its task, and shows the balance", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const engine = createOrderEngine({ store, caseSystem: cases });
    const principal = principalOfKey(key.record);
    const placed = await submitOrder(engine, principal, {
      type: "incasso",
      reference: "TASKS-1",
      debtors: [
        {
          type: "business",
          company_name: "Taak B.V.",
          customer_number: "EV-TASKS",
          address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" },
        },
      ],
      invoices: [
        { invoice_number: "T-1", invoice_date: "2026-10-01", due_date: "2026-10-15", amount_cents: 100_000 },
      ],
    });
    const caseNumber = placed.case.case_number as string;
    const now = new Date();
    await requestOrderAction(engine, principal, placed.id, "hold", { reason: "Klant belt zelf." }, { now });
    await requestOrderAction(
      engine,
      principal,
      placed.id,
      "payments",
      { amount_cents: 20_000, payment_date: "2026-11-19" },
      {
        now: new Date(now.getTime() + 1),
      },
    );
    await requestOrderAction(engine, principal, placed.id, "withdraw", undefined, {
      now: new Date(now.getTime() + 2),
    });
    expect(await eventsOf(caseNumber)).toEqual([]); // spec: control requests send no event of their own
    const tasks = await cases.listTasks({ caseNumber });
    expect(tasks.map((t) => [t.kind, t.status])).toEqual([
      ["hold", "open"],
      ["payments", "open"],
      ["withdraw", "open"],
    ]);
    const [hold, payments, withdraw] = tasks as [(typeof tasks)[0], (typeof tasks)[0], (typeof tasks)[0]];

    await cases.completeTask({ taskId: hold.id });
    await cases.completeTask({ taskId: hold.id }); // a repeat changes nothing
    await cases.rejectTask({ taskId: withdraw.id, reason: "Vordering is terecht." });
    await expect(cases.rejectTask({ taskId: withdraw.id })).rejects.toMatchObject({ code: "task_not_open" });
    await expect(cases.completeTask({ taskId: "act_ffffffffffffffff" })).rejects.toMatchObject({
      code: "task_not_found",
    });
    await expect(
      cases.bookPayment({ caseNumber, amountCents: 1, paymentDate: "2026-11-19", taskId: hold.id }),
    ).rejects.toMatchObject({ code: "invalid_task" });
    await cases.setStatus({ caseNumber, status: "In behandeling" });
    await cases.bookPayment({
      caseNumber,
      amountCents: 20_000,
      paymentDate: "2026-11-19",
      taskId: payments.id,
    });

    const status = await getOrderStatus(engine, principal, placed.id, {
      now: new Date("2026-11-21T12:00:00Z"),
    });
    expect(status.actions.map((a) => [a.action, a.status])).toEqual([
      ["withdraw", "rejected"],
      ["payments", "done"],
      ["hold", "done"],
    ]);
    const balance = await cases.caseBalance({ caseNumber, today: "2026-11-21" });
    expect(status.case.balance_due_cents).toBe(balance?.balanceDueCents);
    expect(balance).toMatchObject({
      principalCents: 100_000,
      collectionCostsCents: 15_000,
      paidCents: 20_000,
    });
    expect((await cases.getTask({ taskId: withdraw.id }))?.resolution).toBe("Vordering is terecht.");

    const data = (caseEvent: string) => ({
      order_id: placed.id,
      case_number: caseNumber,
      reference: "TASKS-1",
      case_event: caseEvent,
    });
    expect((await eventsOf(caseNumber)).map((e) => [e.type, e.data])).toEqual([
      ["case.updated", data("case_tasks")],
      ["case.updated", data("case_tasks")],
      ["case.updated", data("case_status")],
      ["payment.received", data("case_payments")],
      ["case.updated", data("case_tasks")],
    ]);
  });
});

describe("the 14-day letter of a pre-incasso order", () => {
  it("is made once from the job the placed order records, stored on the case, and sends correspondence.sent", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const runner = createLetterRunner({ store, caseSystem: cases, catchUpHours: 0 });
    const engine = createOrderEngine({ store, caseSystem: cases });
    const placed = await submitOrder(engine, principalOfKey(key.record), {
      type: "pre-incasso",
      reference: "PRE-1",
      debtors: [
        {
          type: "individual",
          first_name: "Jan",
          last_name: "Jansen",
          customer_number: "EV-PRE",
          address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
        },
      ],
      invoices: [
        { invoice_number: "P-1", invoice_date: "2026-10-01", due_date: "2026-10-15", amount_cents: 100_000 },
      ],
    });
    const caseNumber = placed.case.case_number as string;
    // Placing the order records the job; the letter is the runner's work (decision case-system-wik-letter-jobs).
    expect((await cases.getCase({ caseNumber }))?.letters).toEqual([]);
    expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
      { orderId: placed.id, caseNumber, state: "pending", attempts: 0, lastError: null },
    ]);
    expect((await runner.runOnce()).map((r) => [r.orderId, r.outcome])).toEqual([[placed.id, "made"]]);
    expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);
    const letters = (await cases.getCase({ caseNumber }))?.letters ?? [];
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      caseNumber,
      orderId: placed.id,
      kind: "wik_letter",
      principalCents: 100_000,
      collectionCostsCents: 15_000,
    });
    expect(letters[0]?.filename).toMatch(/^aanmaning-\d{4}-\d{6}-\d{4}-\d\d-\d\d\.pdf$/);
    // Idempotent on the order id: a second job for the order keeps the one letter.
    await store.database.query(
      `INSERT INTO case_letter_jobs (order_id, case_number, state, due_at, created_at, updated_at)
       VALUES ($1, $2, 'pending', $3, $3, $3)`,
      [placed.id, caseNumber, at.toISOString()],
    );
    expect((await runner.runOnce()).map((r) => [r.orderId, r.outcome, r.letterId])).toEqual([
      [placed.id, "existed", letters[0]?.id],
    ]);
    expect((await cases.getCase({ caseNumber }))?.letters).toHaveLength(1);
    const stored = await cases.readLetter({ caseNumber, letterId: letters[0]?.id as string });
    expect(new TextDecoder().decode(stored?.bytes.subarray(0, 5))).toBe("%PDF-");
    expect(stored?.bytes.byteLength).toBe(letters[0]?.sizeBytes);
    expect((await eventsOf(caseNumber)).map((e) => [e.type, e.data])).toEqual([
      [
        "correspondence.sent",
        { order_id: placed.id, case_number: caseNumber, reference: "PRE-1", case_event: "case_letters" },
      ],
    ]);
  });

  it("is not made for an incasso order", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const first = order("EV-INC");
    const { caseNumber } = await cases.placeOnCase(withItems(first, [invoice("I-1")]));
    expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);
    expect((await cases.getCase({ caseNumber }))?.letters).toEqual([]);
  });
});
