import type { OpenCase } from "./case-system-port.js";

/**
 * Which open case a live order goes on, as {@link chooseOpenCase} decides it.
 *
 * @example
 * const choice: OpenCaseChoice = { join: undefined, own: undefined, others: [] }; // open a new case
 */
export interface OpenCaseChoice {
  /** The open case the order joins; undefined when it opens a case (or finds its own). */
  join: OpenCase | undefined;
  /** The case this very order opened before (a retry after a crash); undefined otherwise. */
  own: OpenCase | undefined;
  /** When the order joins: the other open cases, oldest first, for the warning `multiple_open_cases`. */
  others: string[];
}

/** Oldest first, by opening time and then case number, so the choice never depends on the lookup's order. */
function oldestFirst(cases: readonly OpenCase[]): OpenCase[] {
  return [...cases].sort(
    (a, b) =>
      a.openedAt.getTime() - b.openedAt.getTime() ||
      (a.caseNumber < b.caseNumber ? -1 : a.caseNumber > b.caseNumber ? 1 : 0),
  );
}

/**
 * The merge rule of a live order (decision orders-engine-multiple-open-cases), stated once: given
 * the open cases of the order's organisation and creditor with a debtor carrying one of its
 * customer numbers, the order joins the oldest (opened first, then the lowest case number), unless
 * one of them is the case this order opened itself before a crash (decision
 * orders-engine-order-ids), which is its own and not one to merge into. With none it opens a case.
 * Spec: "A follow-up invoice with the same customer_number for a debtor who already has an open
 * case is added to that open case" (WIK: one reminder and one fee for all claims, art. 6:96 lid 7
 * BW). {@link placeOnCaseStepwise} applies it; the built-in case system applies the same rule in
 * its placement statement, under its lock (decision case-system-port-one-call-placement), and its
 * tests check that both agree.
 *
 * @example
 * const open = [{ caseNumber: "2026-000004", openedAt: new Date("2026-11-02"), openedByOrderId: "ord_b" },
 *   { caseNumber: "2026-000001", openedAt: new Date("2026-11-01"), openedByOrderId: "ord_a" }];
 * chooseOpenCase(open, "ord_c"); // join 2026-000001, others ["2026-000004"]
 */
export function chooseOpenCase(openCases: readonly OpenCase[], orderId: string): OpenCaseChoice {
  const open = oldestFirst(openCases);
  const own = open.find((c) => c.openedByOrderId === orderId);
  if (own !== undefined) return { join: undefined, own, others: [] };
  const [join, ...rest] = open;
  return { join, own: undefined, others: rest.map((c) => c.caseNumber) };
}
