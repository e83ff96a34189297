import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import { createCaseHandler } from "./case-handler.js";
import {
  CaseListSchema,
  CasePaymentSchema,
  CaseSummarySchema,
  CaseTaskListSchema,
  CaseViewSchema,
  SentLetterSchema,
} from "./case-handler-schemas.js";
import { giveLetterDetails } from "./internal/testing/letter-details.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

let store: SqlStore;
let organisationId: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  organisationId = (await issueApiKey(store, { organisation: "Handler BV", mode: "live" })).record
    .organisationId;
  await giveLetterDetails(store.database, organisationId);
});
afterAll(() => store.close());

// The handler's clock: 21 November 2026, 11:00 in Amsterdam.
const now = new Date("2026-11-21T10:00:00.000Z");

async function openCaseWithInvoice(customerNumber: string) {
  const cases = createBuiltInCaseSystem({ store, now: () => now });
  const orderId = `ord_${customerNumber.replace(/\D/g, "").padStart(16, "0")}`;
  const { caseNumber } = await cases.placeOnCase({
    orderId,
    organisationId,
    creditor: { id: null, name: "Handler BV" },
    type: "pre-incasso",
    reference: "H-1",
    title: "Overeenkomst van opdracht voor factuur H-1",
    description: null,
    udfFields: {},
    debtors: [
      {
        type: "individual",
        name: "Jan Jansen",
        company_name: null,
        first_name: "Jan",
        middle_name: null,
        last_name: "Jansen",
        customer_number: customerNumber,
        email: null,
        phone: null,
      },
    ],
    note: null,
    at: now,
    addresses: [
      {
        debtorIndex: 0,
        address: {
          street: "Teststraat",
          house_number: "3",
          house_number_suffix: null,
          postal_code: "9999 ZZ",
          city: "Testdorp",
          country: "NL",
        },
      },
    ],
    invoices: [
      {
        invoiceIndex: 0,
        invoice: {
          invoice_number: "H-1",
          invoice_date: "2026-10-01",
          due_date: "2026-11-21",
          payment_term_days: null,
          amount_cents: 100_000,
          description: null,
        },
      },
    ],
  });
  return { cases, caseNumber, orderId };
}

describe("createCaseHandler", () => {
  it("lists, shows, books, moves, writes a letter and closes with wire objects of the exported schemas", async () => {
    const { cases, caseNumber, orderId } = await openCaseWithInvoice("H-10");
    const handler = createCaseHandler(cases, { now: () => now });

    const list = CaseListSchema.parse(await handler.listCases({ organisation_id: organisationId }));
    expect(list.data.find((c) => c.case_number === caseNumber)).toEqual({
      object: "case_summary",
      case_number: caseNumber,
      organisation_id: organisationId,
      organisation: "Handler BV",
      creditor_name: "Handler BV",
      type: "pre-incasso",
      reference: "H-1",
      status: "Nieuw",
      open: true,
      debtors: "Jan Jansen",
      invoice_count: 1,
      principal_cents: 100_000,
      paid_cents: 0,
      open_tasks: 0,
      created_at: "2026-11-21T10:00:00.000Z",
    });

    const moved = CaseSummarySchema.parse(
      await handler.setStatus({ case_number: caseNumber, status: "In behandeling" }),
    );
    expect(moved.status).toBe("In behandeling");
    // Due today: no interest yet; no letter yet, so no collection costs on a pre-incasso claim (art.
    // 6:96 lid 6 BW; decision case-system-collection-costs).
    const paid = CasePaymentSchema.parse(
      await handler.bookPayment({ case_number: caseNumber, amount_cents: 40_000 }),
    );
    expect(paid).toMatchObject({
      object: "case_payment",
      case_number: caseNumber,
      amount_cents: 40_000,
      payment_date: "2026-11-21",
      task_id: null,
      booked_at: "2026-11-21T10:00:00.000Z",
      balance: {
        as_of: "2026-11-21",
        principal_cents: 100_000,
        collection_costs_cents: 0,
        interest_cents: 0,
        paid_cents: 40_000,
        balance_due_cents: 60_000,
      },
    });

    const letter = SentLetterSchema.parse(await handler.sendLetter({ case_number: caseNumber }));
    expect(letter).toMatchObject({
      object: "case_letter",
      case_number: caseNumber,
      order_id: null,
      kind: "wik_letter",
      filename: `aanmaning-${caseNumber}-2026-11-21.pdf`,
      letter_date: "2026-11-21",
      principal_cents: 60_000,
      collection_costs_cents: 9_000,
      sent_at: "2026-11-21T10:00:00.000Z",
    });
    const pdf = Buffer.from(letter.content_base64, "base64");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.byteLength).toBe(letter.size_bytes);

    const view = CaseViewSchema.parse(await handler.showCase({ case_number: caseNumber }));
    expect(view).toMatchObject({
      object: "case",
      case_number: caseNumber,
      status: "In behandeling",
      in_treatment: true,
      orders: [{ order_id: orderId, type: "pre-incasso", reference: "H-1" }],
      debtors: [{ name: "Jan Jansen", address: { postal_code: "9999 ZZ", city: "Testdorp" } }],
      invoices: [{ invoice_number: "H-1", amount_cents: 100_000, due_date: "2026-11-21" }],
      payments: [{ amount_cents: 40_000, payment_date: "2026-11-21" }],
      letters: [{ id: letter.id, filename: letter.filename }],
      // The costs the letter announced over the € 600,00 outstanding, not the scale over € 1.000,00.
      balance: { collection_costs_cents: 9_000, balance_due_cents: 69_000 },
    });

    const closed = await handler.closeCase({ case_number: caseNumber });
    expect([closed.status, closed.open]).toEqual(["Gesloten", false]);
    expect(
      (await handler.listCases({ open: false, organisation_id: organisationId })).data.map(
        (c) => c.case_number,
      ),
    ).toContain(caseNumber);
  });

  it("lists tasks and resolves them by id", async () => {
    const { cases, caseNumber, orderId } = await openCaseWithInvoice("H-20");
    await cases.addTask({
      taskId: "act_00000000000000a1",
      orderId,
      organisationId,
      caseNumber,
      action: "hold",
      instructions: "Pauzeer de incasso.",
      reason: null,
      amountCents: null,
      paymentDate: null,
      at: now,
    });
    const handler = createCaseHandler(cases, { now: () => now });
    const open = CaseTaskListSchema.parse(
      await handler.listTasks({ status: "open", case_number: caseNumber }),
    );
    expect(open.data.map((t) => [t.id, t.action, t.status])).toEqual([
      ["act_00000000000000a1", "hold", "open"],
    ]);
    expect(await handler.rejectTask({ task_id: "act_00000000000000a1", note: "Niet nodig." })).toMatchObject({
      object: "case_task",
      status: "rejected",
      resolution: "Niet nodig.",
      resolved_at: "2026-11-21T10:00:00.000Z",
    });
    expect((await handler.listTasks({ status: "open", case_number: caseNumber })).data).toEqual([]);
  });

  it("resolves a task given with its case number only on that case, else task_not_found", async () => {
    const { cases, caseNumber, orderId } = await openCaseWithInvoice("H-21");
    const other = await openCaseWithInvoice("H-22");
    await cases.addTask({
      taskId: "act_00000000000000b1",
      orderId,
      organisationId,
      caseNumber,
      action: "hold",
      instructions: "Pauzeer de incasso.",
      reason: null,
      amountCents: null,
      paymentDate: null,
      at: now,
    });
    const handler = createCaseHandler(cases, { now: () => now });
    for (const resolve of [handler.completeTask, handler.rejectTask])
      await expect(
        resolve({ task_id: "act_00000000000000b1", case_number: other.caseNumber, note: "Elders." }),
      ).rejects.toMatchObject({
        code: "task_not_found",
        message: `No task act_00000000000000b1 on case ${other.caseNumber}.`,
      });
    expect((await handler.listTasks({ status: "open", case_number: caseNumber })).data).toHaveLength(1);
    expect(
      await handler.completeTask({ task_id: "act_00000000000000b1", case_number: caseNumber }),
    ).toMatchObject({ id: "act_00000000000000b1", case_number: caseNumber, status: "done" });
  });

  it("refuses bad requests with invalid_request and unknown ones with a not-found code", async () => {
    const handler = createCaseHandler(createBuiltInCaseSystem({ store }));
    await expect(handler.bookPayment({ case_number: "2026-000001", amount_cents: 0 })).rejects.toMatchObject({
      code: "invalid_request",
      message: "amount_cents: Too small: expected number to be >=1.",
    });
    await expect(handler.setStatus({ case_number: "2026-000001", status: "Open" })).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(handler.showCase({ case_number: "1999-999999" })).rejects.toMatchObject({
      code: "case_not_found",
    });
    await expect(handler.completeTask({ task_id: "act_ffffffffffffffff" })).rejects.toMatchObject({
      code: "task_not_found",
    });
    await expect(handler.listCases({ colour: "red" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});
