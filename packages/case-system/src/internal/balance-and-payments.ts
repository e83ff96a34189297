import { randomBytes } from "node:crypto";
import { type CaseState, isIsoDate } from "@incasso/core";
import { amsterdamDate } from "@incasso/wik";
import type { BuiltInCaseSystem } from "../built-in-case-system.js";
import { type CaseBalance, computeCaseBalance } from "../case-balance.js";
import type { CaseChange } from "../case-change.js";
import { CaseSystemError } from "../errors.js";
import { taskNotFound, taskNotOpen } from "./case-errors.js";
import * as q from "./case-queries.js";
import { type CaseSystemContext, changeOf, HANDLER, requireOwner } from "./case-writes.js";
import * as h from "./handler-queries.js";

// A real calendar date from year 1 on (PostgreSQL has no year 0): a handler's mistyped date is an
// invalid payment, not a database failure.
const isPaymentDate = (date: string): boolean => isIsoDate(date) && date >= "0001-01-01";

const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);

// A timestamptz through json_build_object: ISO with an offset, which Date reads.
const iso = (at: string): string => new Date(at).toISOString();

/**
 * The balance from the case's row: its claims, payments and letters go to the one computation of
 * the costs the letter uses too (decision case-system-collection-costs).
 */
function balanceOf(row: q.CaseStateRow, today: string): CaseBalance {
  return computeCaseBalance({
    invoices: parsed(row.invoices).map((i) => ({
      amountCents: Number(i.amount_cents),
      dueDate: i.due_date,
      addedAt: iso(i.added_at),
      preIncasso: i.pre_incasso,
    })),
    payments: parsed(row.payments).map((p) => ({
      amountCents: Number(p.amount_cents),
      paymentDate: p.payment_date,
    })),
    // A letter made before claims_through was kept listed every invoice on the case when it was sent.
    letters: parsed(row.letters).map((l) => ({
      letterDate: l.letter_date,
      sentAt: iso(l.sent_at),
      claimsThrough: iso(l.claims_through ?? l.sent_at),
      collectionCostsCents: Number(l.collection_costs_cents),
    })),
    paidCents: Number(row.paid_cents),
    consumer: row.consumer,
    today,
  });
}

/**
 * The money of a case: its state for the order engine (with the balance once it is in treatment),
 * its balance for a handler, and the booking of a payment (decision case-system-balance).
 *
 * @example
 * const { bookPayment } = balanceAndPayments(caseSystemContext({ store }));
 * await bookPayment({ caseNumber: "2026-000001", amountCents: 5000, paymentDate: "2026-11-20" });
 */
export function balanceAndPayments(
  ctx: CaseSystemContext,
): Pick<BuiltInCaseSystem, "caseState" | "caseBalance" | "bookPayment"> {
  const { db, write, clock } = ctx;
  return {
    async caseState(query): Promise<CaseState | undefined> {
      const row = await q.selectCaseState(db, query);
      if (row === undefined) return undefined;
      const state: CaseState = { caseNumber: row.case_number, status: row.status, open: row.open };
      // Spec OrderStatus.case.balance_due_cents: only once the case is in treatment.
      if (row.in_treatment) state.balanceDueCents = balanceOf(row, query.today).balanceDueCents;
      return state;
    },

    async caseBalance(query) {
      const row = await q.selectCaseState(db, { caseNumber: query.caseNumber });
      if (row === undefined) return undefined;
      return balanceOf(row, query.today ?? amsterdamDate(clock()));
    },

    bookPayment: (input) => {
      if (
        !Number.isSafeInteger(input.amountCents) ||
        input.amountCents < 1 ||
        !isPaymentDate(input.paymentDate)
      ) {
        return Promise.reject(
          new CaseSystemError(
            "invalid_payment",
            "A payment needs amountCents >= 1 and a real YYYY-MM-DD paymentDate from 0001-01-01 on.",
          ),
        );
      }
      const at = input.at ?? clock();
      const paymentId = `pay_${randomBytes(8).toString("hex")}`;
      return write(HANDLER, async (tx) => {
        let owner = await requireOwner(tx, input.caseNumber);
        const changes: CaseChange[] = [];
        if (input.taskId !== undefined) {
          const task = await h.findTask(tx, input.taskId, true);
          if (task === undefined || task.caseNumber !== input.caseNumber) throw taskNotFound(input.taskId);
          if (task.kind !== "payments") {
            throw new CaseSystemError(
              "invalid_task",
              `Task ${input.taskId} is a ${task.kind} request, not a payment report.`,
            );
          }
          if (task.status !== "open") throw taskNotOpen(task);
          // The payment answers this order's report: its event names that order.
          if (task.orderId !== null)
            owner = (await q.orderOwner(tx, input.caseNumber, task.orderId)) ?? owner;
          await h.resolveTask(tx, { taskId: task.id, status: "done", resolution: null, at });
          changes.push({ ...changeOf(owner, at), kind: "task_completed", taskId: task.id });
        }
        await tx.query(
          `INSERT INTO case_payments (id, case_number, amount_cents, payment_date, task_id, booked_at)
           VALUES ($1, $2, $3, $4::date, $5, $6)`,
          [
            paymentId,
            input.caseNumber,
            input.amountCents,
            input.paymentDate,
            input.taskId ?? null,
            at.toISOString(),
          ],
        );
        changes.unshift({
          ...changeOf(owner, at),
          kind: "payment_booked",
          paymentId,
          amountCents: input.amountCents,
          paymentDate: input.paymentDate,
        });
        return { result: { paymentId }, changes };
      });
    },
  };
}
