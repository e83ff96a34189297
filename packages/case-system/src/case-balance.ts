import { addCalendarDays } from "@incasso/core";
import { calculateStatutoryInterest, getRateTable } from "@incasso/wik";
import {
  type CostsClaim,
  type CostsLetter,
  type CostsPayment,
  caseCollectionCosts,
} from "./case-collection-costs.js";

/**
 * What {@link computeCaseBalance} needs: the invoices on the case, the payments booked on it, the
 * 14-day letters made for it, whether a debtor is a consumer, and the date to compute to.
 *
 * @example
 * const input: CaseBalanceInput = { invoices: [{ amountCents: 125000, dueDate: "2026-10-15" }], paidCents: 0, consumer: false, today: "2026-11-21" };
 */
export interface CaseBalanceInput {
  /** The claims; `addedAt` and `preIncasso` say which letter's costs they carry (see {@link caseCollectionCosts}). */
  invoices: ReadonlyArray<CostsClaim & { dueDate: string }>;
  /** Sum of the payments booked on the case. */
  paidCents: number;
  /** The payments with their dates, for the principal a letter's costs are taken over; none when left out. */
  payments?: ReadonlyArray<CostsPayment>;
  /** The 14-day letters made for the case; none when left out. */
  letters?: ReadonlyArray<CostsLetter>;
  /** True when a debtor is an individual: wettelijke rente (art. 6:119 BW) instead of handelsrente (art. 6:119a BW). */
  consumer: boolean;
  /** `YYYY-MM-DD`; interest runs up to and including this day. */
  today: string;
}

/**
 * The parts of a case balance, all in euro cents.
 *
 * @example
 * const b: CaseBalance = { principalCents: 125000, collectionCostsCents: 18750, interestCents: 1000, paidCents: 0, balanceDueCents: 144750 };
 */
export interface CaseBalance {
  principalCents: number;
  collectionCostsCents: number;
  interestCents: number;
  paidCents: number;
  /** principal + costs + interest − paid, never below zero. */
  balanceDueCents: number;
}

// The first day each bundled rate table covers; interest before it cannot be computed from the
// table, so it starts there (decision case-system-balance): a due date is at the earliest the day
// before.
const TABLE_START = {
  consumer: getRateTable("wettelijke_rente")[0]?.from ?? "2002-01-01",
  business: getRateTable("wettelijke_handelsrente")[0]?.from ?? "2002-08-08",
} as const;
const EARLIEST_DUE_DATE = {
  consumer: addCalendarDays(TABLE_START.consumer, -1),
  business: addCalendarDays(TABLE_START.business, -1),
} as const;

/**
 * The outstanding balance of a case in treatment (spec OrderStatus.case.balance_due_cents:
 * "outstanding balance including collection costs and interest"), through @incasso/wik:
 *
 * - the collection costs of {@link caseCollectionCosts}, the one computation the 14-day letter uses
 *   too: what the latest letter announced for the claims it listed (never more, art. 6:96 lid 6
 *   BW), and for claims no letter of ours listed the BIK scale over their principals added together
 *   (art. 6:96 lid 7 BW) when their order came after the client's own letter (decision
 *   case-system-collection-costs);
 * - statutory interest per invoice from the day after its due date up to and including `today`,
 *   wettelijke rente for a consumer, handelsrente otherwise, compounded yearly (art. 6:119,
 *   6:119a, 6:120 BW);
 * - minus the payments booked on the case.
 *
 * Payments are subtracted from the total; their allocation to costs, interest and principal (art.
 * 6:44 BW) and their effect on later interest are not modelled (decision case-system-balance).
 *
 * @example
 * computeCaseBalance({ invoices: [{ amountCents: 100_000, dueDate: "2026-11-21" }], paidCents: 0, consumer: false, today: "2026-11-21" });
 * // { principalCents: 100000, collectionCostsCents: 15000, interestCents: 0, paidCents: 0, balanceDueCents: 115000 }
 */
export function computeCaseBalance(input: CaseBalanceInput): CaseBalance {
  let principal = 0;
  let interest = 0;
  const debtorType = input.consumer ? "consumer" : "business";
  const start = EARLIEST_DUE_DATE[debtorType];
  for (const invoice of input.invoices) {
    principal += invoice.amountCents;
    let dueDate = invoice.dueDate;
    // ISO dates of four-digit years compare correctly as text.
    if (dueDate < start) dueDate = start;
    interest += calculateStatutoryInterest({
      principalCents: invoice.amountCents,
      debtorType,
      dueDate,
      endDate: input.today,
    }).amount_cents;
  }
  const costs = caseCollectionCosts({
    claims: input.invoices,
    payments: input.payments ?? [],
    letters: input.letters ?? [],
  });
  const due = principal + costs + interest - input.paidCents;
  return {
    principalCents: principal,
    collectionCostsCents: costs,
    interestCents: interest,
    paidCents: input.paidCents,
    balanceDueCents: Math.max(0, due),
  };
}
