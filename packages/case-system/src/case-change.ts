import type { StoreRepositories } from "@incasso/core";
import type { Executor } from "@incasso/store-sql";
import type { CaseStatus } from "./case-statuses.js";

/**
 * Something that changed on a case of the built-in case system, handed to a
 * {@link CaseChangeListener} inside the transaction that made the change. `orderId` is the order
 * the change concerns (for a case-level change: the order that opened the case) and `reference`
 * the client's reference of that order, which is what a webhook event carries (spec Events:
 * `data.order_id`, `data.case_number`, `data.reference`). A task's change concerns the order whose
 * control request it is; a letter made for an order, that order (decision case-system-webhook-events).
 *
 * @example
 * const change: CaseChange = { kind: "payment_booked", caseNumber: "2026-000001", organisationId: "org_0123456789abcdef",
 *   orderId: "ord_0123456789abcdef", reference: "R-1", at: new Date(), paymentId: "pay_0123456789abcdef", amountCents: 5000, paymentDate: "2026-11-20" };
 */
export type CaseChange = {
  caseNumber: string;
  organisationId: string;
  orderId: string;
  reference: string | null;
  at: Date;
} & (
  | { kind: "case_opened" }
  | { kind: "order_added" }
  | { kind: "debtor_address_set"; debtorIndex: number }
  | {
      kind: "invoice_added";
      invoiceNumber: string;
      /** True when the order joined a case another order opened (a merge, spec Order.case.new false). */
      merged: boolean;
    }
  | { kind: "attachment_stored"; filename: string }
  | { kind: "task_added"; taskId: string; action: "hold" | "withdraw" | "payments" }
  | { kind: "task_completed"; taskId: string }
  | { kind: "task_rejected"; taskId: string }
  | { kind: "letter_sent"; letterId: string; letterKind: "wik_letter" }
  | { kind: "status_changed"; from: CaseStatus; to: CaseStatus }
  | { kind: "payment_booked"; paymentId: string; amountCents: number; paymentDate: string }
  | { kind: "note_added"; noteId: string }
);

/**
 * The transaction a {@link CaseChangeListener} runs in: the raw executor and every repository of
 * the store bound to it, so a listener can write outbox rows (`repositories.outbox`) that commit
 * or roll back together with the case change (architecture: transactional outbox).
 *
 * @example
 * const listener: CaseChangeListener = async (change, tx) => { await tx.db.query("SELECT 1"); };
 */
export interface CaseTransaction {
  db: Executor;
  repositories: StoreRepositories;
}

/**
 * Called for every change inside the transaction of the change; a throw rolls the change back.
 *
 * @example
 * const onChange: CaseChangeListener = async (change) => { console.log(change.kind, change.caseNumber); };
 */
export type CaseChangeListener = (change: CaseChange, tx: CaseTransaction) => Promise<void>;
