import { describe, expect, it } from "vitest";
import type { CaseChange } from "./case-change.js";
import { caseChangeEvent, webhookEventForChange } from "./webhook-events.js";

const base = {
  caseNumber: "2026-000007",
  organisationId: "org_0123456789abcdef",
  orderId: "ord_0123456789abcdef",
  reference: "R-7",
  at: new Date("2026-11-21T10:00:00.000Z"),
};

describe("caseChangeEvent", () => {
  it("maps every change kind to the spec's event type, or to none", () => {
    const changes: CaseChange[] = [
      { ...base, kind: "case_opened" },
      { ...base, kind: "order_added" },
      { ...base, kind: "debtor_address_set", debtorIndex: 0 },
      { ...base, kind: "invoice_added", invoiceNumber: "F-1", merged: false },
      { ...base, kind: "invoice_added", invoiceNumber: "F-2", merged: true },
      { ...base, kind: "attachment_stored", filename: "f.pdf" },
      { ...base, kind: "task_added", taskId: "act_1", action: "hold" },
      { ...base, kind: "task_completed", taskId: "act_1" },
      { ...base, kind: "task_rejected", taskId: "act_2" },
      { ...base, kind: "status_changed", from: "Nieuw", to: "In behandeling" },
      { ...base, kind: "status_changed", from: "In behandeling", to: "Gesloten" },
      { ...base, kind: "payment_booked", paymentId: "pay_1", amountCents: 100, paymentDate: "2026-11-20" },
      { ...base, kind: "note_added", noteId: "1" },
      { ...base, kind: "letter_sent", letterId: "let_1", letterKind: "wik_letter" },
    ];
    expect(changes.map((c) => caseChangeEvent(c) ?? null)).toEqual([
      null,
      null,
      null,
      null,
      { type: "invoice.updated", caseEvent: "case_invoices" },
      null,
      null,
      { type: "case.updated", caseEvent: "case_tasks" },
      { type: "case.updated", caseEvent: "case_tasks" },
      { type: "case.updated", caseEvent: "case_status" },
      { type: "case.closed", caseEvent: "case_status" },
      { type: "payment.received", caseEvent: "case_payments" },
      null,
      { type: "correspondence.sent", caseEvent: "case_letters" },
    ]);
  });

  it("builds the outbox row for the organisation with the order's id and reference", () => {
    expect(
      webhookEventForChange({
        ...base,
        kind: "payment_booked",
        paymentId: "pay_1",
        amountCents: 100,
        paymentDate: "2026-11-20",
      }),
    ).toEqual({
      organisationId: "org_0123456789abcdef",
      type: "payment.received",
      data: {
        order_id: "ord_0123456789abcdef",
        case_number: "2026-000007",
        reference: "R-7",
        case_event: "case_payments",
      },
    });
    expect(webhookEventForChange({ ...base, kind: "note_added", noteId: "1" })).toBeUndefined();
  });
});
