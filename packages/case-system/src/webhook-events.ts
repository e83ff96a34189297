import type { OutboxEventInput, WebhookEventType } from "@incasso/core";
import type { CaseChange } from "./case-change.js";

/**
 * The `data.case_event` names of the built-in case system (spec Events: "underlying case-system
 * event name, for example `case_payments`"): the case table the change was written to.
 *
 * @example
 * CASE_EVENT_NAMES.payment; // "case_payments"
 */
export const CASE_EVENT_NAMES = {
  payment: "case_payments",
  status: "case_status",
  invoice: "case_invoices",
  letter: "case_letters",
  task: "case_tasks",
} as const;

/**
 * The webhook event a case change sends, or undefined for a change the client is not told about
 * (decision case-system-webhook-events):
 *
 * | change | event | `data.case_event` |
 * |---|---|---|
 * | `payment_booked` | `payment.received` | `case_payments` |
 * | `status_changed` to `Gesloten` | `case.closed` | `case_status` |
 * | `status_changed` otherwise | `case.updated` | `case_status` |
 * | `letter_sent` | `correspondence.sent` | `case_letters` |
 * | `invoice_added` by a merge | `invoice.updated` | `case_invoices` |
 * | `task_completed`, `task_rejected` | `case.updated` | `case_tasks` |
 *
 * Submission itself (case opened, order added, address, a new case's invoices, files) and a
 * control request's task answer the client synchronously and send nothing (spec Delivery:
 * "Control requests ... produce no event of their own"); notes are the handler's own.
 *
 * @example
 * caseChangeEvent({ kind: "payment_booked", caseNumber: "2026-000001", organisationId: "org_0123456789abcdef",
 *   orderId: "ord_0123456789abcdef", reference: "R-1", at: new Date(), paymentId: "pay_0123456789abcdef",
 *   amountCents: 5000, paymentDate: "2026-11-20" });
 * // { type: "payment.received", caseEvent: "case_payments" }
 */
export function caseChangeEvent(
  change: CaseChange,
): { type: Exclude<WebhookEventType, "ping">; caseEvent: string } | undefined {
  switch (change.kind) {
    case "payment_booked":
      return { type: "payment.received", caseEvent: CASE_EVENT_NAMES.payment };
    case "status_changed":
      return {
        type: change.to === "Gesloten" ? "case.closed" : "case.updated",
        caseEvent: CASE_EVENT_NAMES.status,
      };
    case "letter_sent":
      return { type: "correspondence.sent", caseEvent: CASE_EVENT_NAMES.letter };
    case "invoice_added":
      return change.merged ? { type: "invoice.updated", caseEvent: CASE_EVENT_NAMES.invoice } : undefined;
    case "task_completed":
    case "task_rejected":
      return { type: "case.updated", caseEvent: CASE_EVENT_NAMES.task };
    default:
      return undefined;
  }
}

/**
 * The outbox row of a case change (for `tx.outbox.enqueue` in the change's transaction), or
 * undefined when the change sends no event: for the organisation that owns the order, with
 * `data.order_id` and `data.reference` of the order the change concerns (the case's opening order
 * for a case-wide change: spec `data.order_id` "of the original order").
 *
 * @example
 * const event = webhookEventForChange(change);
 * if (event) await tx.repositories.outbox.enqueue(event);
 */
export function webhookEventForChange(change: CaseChange): OutboxEventInput | undefined {
  const event = caseChangeEvent(change);
  if (event === undefined) return undefined;
  return {
    organisationId: change.organisationId,
    type: event.type,
    data: {
      order_id: change.orderId,
      case_number: change.caseNumber,
      reference: change.reference,
      case_event: event.caseEvent,
    },
  };
}
