import type { CaseState } from "../../case-system-port.js";
import { debtorsSummary } from "../../orders/display-name.js";
import type { Order } from "../../orders/order-schema.js";
import type { OrderStatus } from "../../orders/order-status-schema.js";
import type { OrderActionRecord, OrderRecord } from "../../store-port.js";

// A stored order in each of the spec's response shapes (Order, OrderList item, OrderStatus).

export function toOrder(record: OrderRecord): Order {
  return {
    id: record.id,
    object: "order",
    mode: record.mode,
    type: record.type,
    reference: record.reference,
    case: { case_number: record.caseNumber, new: record.caseNew },
    debtors: record.debtors.map((d) => ({ name: d.name, customer_number: d.customer_number })),
    invoice_count: record.invoiceCount,
    total_amount_cents: record.totalAmountCents,
    metadata: record.metadata,
    udf_fields: record.udfFields,
    warnings: record.warnings,
    created_at: record.createdAt.toISOString(),
  };
}

/** One item of an OrderList. */
export interface OrderListItem {
  id: string;
  object: "order";
  mode: "live" | "test";
  type: "pre-incasso" | "incasso";
  reference: string | null;
  case: { case_number: string | null; new: boolean };
  debtors_summary: string;
  invoice_count: number;
  total_amount_cents: number;
  created_at: string;
}

export function toListItem(record: OrderRecord): OrderListItem {
  return {
    id: record.id,
    object: "order",
    mode: record.mode,
    type: record.type,
    reference: record.reference,
    case: { case_number: record.caseNumber, new: record.caseNew },
    // The names were made by debtorDisplayName at submission; joining them is debtorsSummary's rule.
    debtors_summary: debtorsSummary(record.debtors.map((d) => ({ type: "business", company_name: d.name }))),
    invoice_count: record.invoiceCount,
    total_amount_cents: record.totalAmountCents,
    created_at: record.createdAt.toISOString(),
  };
}

export function toStatus(
  record: OrderRecord,
  actions: readonly OrderActionRecord[],
  state: CaseState | undefined,
): OrderStatus {
  const caseObject: OrderStatus["case"] = {
    case_number: record.caseNumber,
    new: record.caseNew,
    status: state?.status ?? null,
    open: state?.open ?? false,
  };
  // Spec OrderStatus.case.balance_due_cents: "present only once the case is in treatment".
  if (state?.balanceDueCents !== undefined) caseObject.balance_due_cents = state.balanceDueCents;
  return {
    id: record.id,
    object: "order",
    mode: record.mode,
    type: record.type,
    reference: record.reference,
    case: caseObject,
    invoice_count: record.invoiceCount,
    total_amount_cents: record.totalAmountCents,
    warnings: record.warnings,
    actions: actions.map((a) => ({
      action: a.action,
      status: a.status,
      reason: a.reason,
      ...(a.amountCents === null ? {} : { amount_cents: a.amountCents }),
      created_at: a.createdAt.toISOString(),
    })),
    created_at: record.createdAt.toISOString(),
  };
}
