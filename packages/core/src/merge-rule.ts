import type { CaseOrderInput, OpenCase, OpenCaseQuery } from "./case-system-port.js";

// The merge rule of a live order (decision orders-engine-multiple-open-cases), written once as
// criteria: which open cases an order may join (the scope), which of them it joins (the order of
// the keys below) and which case is its own. Spec: "A follow-up invoice with the same
// customer_number for a debtor who already has an open case is added to that open case" (WIK: one
// reminder and one fee for all claims, art. 6:96 lid 7 BW). Two paths follow it: chooseOpenCase
// below (a host's smaller calls, placeOnCaseStepwise of @incasso/case-system-conformance/stepwise)
// and the built-in case system's placement statement, which must decide under its lock in one
// statement (decision case-system-port-one-call-placement) and builds its ORDER BY from
// OPEN_CASE_ORDER; a test runs both on the same cases and compares (decision
// case-system-merge-rule-shared).

/**
 * The keys by which the open cases in scope are ranked, first key first, each ascending: the
 * order joins the first case (the oldest). `openedAt` compares the opening moments; `caseNumber`
 * compares by code point, as JavaScript's `<` compares strings and SQL's `COLLATE "C"` does, so
 * the choice never depends on a database's collation or the lookup's order. Each path maps every
 * key to its own comparison (a `Record` over these names, so a new key is a type error until both
 * have it).
 *
 * @example
 * OPEN_CASE_ORDER; // ["openedAt", "caseNumber"]
 */
export const OPEN_CASE_ORDER = Object.freeze(["openedAt", "caseNumber"] as const);

/**
 * A key of {@link OPEN_CASE_ORDER}.
 *
 * @example
 * const key: OpenCaseOrderKey = "openedAt";
 */
export type OpenCaseOrderKey = (typeof OPEN_CASE_ORDER)[number];

const compareBy: Readonly<Record<OpenCaseOrderKey, (a: OpenCase, b: OpenCase) => number>> = {
  openedAt: (a, b) => a.openedAt.getTime() - b.openedAt.getTime(),
  caseNumber: (a, b) => (a.caseNumber < b.caseNumber ? -1 : a.caseNumber > b.caseNumber ? 1 : 0),
};

/**
 * Compares two open cases by {@link OPEN_CASE_ORDER}: negative when `a` is joined before `b`.
 *
 * @example
 * cases.sort(compareOpenCases); // oldest first
 */
export function compareOpenCases(a: OpenCase, b: OpenCase): number {
  for (const key of OPEN_CASE_ORDER) {
    const d = compareBy[key](a, b);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The scope of the merge rule for an order: its organisation, its creditor (the organisation's
 * own principal, `null`, is a creditor like any other and meets only itself) and its customer
 * numbers, each once. Undefined when no debtor has a customer number: such an order never joins
 * a case (decision orders-engine-multiple-open-cases). Both paths take their lookup's parameters
 * (and the built-in its lock keys) from here.
 *
 * @example
 * openCaseQuery({ organisationId: "org_1", creditor: { id: null, name: "A" },
 *   debtors: [{ customer_number: "K-1" }, { customer_number: null }, { customer_number: "K-1" }] });
 * // { organisationId: "org_1", creditorId: null, customerNumbers: ["K-1"] }
 */
export function openCaseQuery(
  input: Pick<CaseOrderInput, "organisationId" | "creditor"> & {
    debtors: readonly { customer_number: string | null }[];
  },
): OpenCaseQuery | undefined {
  const customerNumbers = [
    ...new Set(input.debtors.map((d) => d.customer_number).filter((n): n is string => n !== null)),
  ];
  if (customerNumbers.length === 0) return undefined;
  return { organisationId: input.organisationId, creditorId: input.creditor.id, customerNumbers };
}

/**
 * A case as the scope of the merge rule sees it ({@link inMergeScope}).
 *
 * @example
 * const c: MergeCandidate = { organisationId: "org_1", creditorId: null, open: true, customerNumbers: ["K-1", null] };
 */
export interface MergeCandidate {
  organisationId: string;
  creditorId: string | null;
  open: boolean;
  /** The customer numbers of the case's debtors (null for a debtor without one). */
  customerNumbers: readonly (string | null)[];
}

/**
 * Whether a case is one an order with this query may join: open, of the same organisation and the
 * same creditor, with a debtor carrying one of the order's customer numbers. What a host's
 * `findOpenCases` returns and what the built-in's statement finds; the test of the built-in
 * checks its statement against this.
 *
 * @example
 * inMergeScope({ organisationId: "org_1", creditorId: null, open: true, customerNumbers: ["K-1"] },
 *   { organisationId: "org_1", creditorId: null, customerNumbers: ["K-1"] }); // true
 */
export function inMergeScope(candidate: MergeCandidate, query: OpenCaseQuery): boolean {
  return (
    candidate.open &&
    candidate.organisationId === query.organisationId &&
    candidate.creditorId === query.creditorId &&
    candidate.customerNumbers.some((n) => n !== null && query.customerNumbers.includes(n))
  );
}

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

/**
 * The merge rule of a live order, given the open cases in its scope ({@link inMergeScope}): the
 * order joins the first by {@link OPEN_CASE_ORDER} (the oldest: opened first, then the lowest case
 * number), unless one of them is the case this order opened itself before a crash (decision
 * orders-engine-order-ids), which is its own and not one to merge into. With none it opens a case.
 * `placeOnCaseStepwise` (@incasso/case-system-conformance/stepwise) applies it; the built-in case
 * system applies the same criteria in its placement statement, under its lock (decisions
 * case-system-port-one-call-placement, case-system-merge-rule-shared).
 *
 * @example
 * const open = [{ caseNumber: "2026-000004", openedAt: new Date("2026-11-02"), openedByOrderId: "ord_b" },
 *   { caseNumber: "2026-000001", openedAt: new Date("2026-11-01"), openedByOrderId: "ord_a" }];
 * chooseOpenCase(open, "ord_c"); // join 2026-000001, others ["2026-000004"]
 */
export function chooseOpenCase(openCases: readonly OpenCase[], orderId: string): OpenCaseChoice {
  const open = [...openCases].sort(compareOpenCases);
  const own = open.find((c) => c.openedByOrderId === orderId);
  if (own !== undefined) return { join: undefined, own, others: [] };
  const [join, ...rest] = open;
  return { join, own: undefined, others: rest.map((c) => c.caseNumber) };
}
