import type { CasePlacement, CasePlacementInput } from "@incasso/core";
import type { CaseChange } from "../case-change.js";
import type { PlacementResult } from "./placement-queries.js";

/**
 * The port's answer for a placement: the other open cases only when the order joined one (for the
 * warning `multiple_open_cases`), never the case itself.
 *
 * @example
 * toCasePlacement({ outcome: "joined", caseNumber: "2026-000001", caseNew: false,
 *   openCases: ["2026-000001", "2026-000004"], addresses: [0], invoices: [0] });
 * // { caseNumber: "2026-000001", caseNew: false, otherOpenCases: ["2026-000004"] }
 */
export function toCasePlacement(result: PlacementResult): CasePlacement {
  return {
    caseNumber: result.caseNumber,
    caseNew: result.caseNew,
    otherOpenCases: result.caseNew ? [] : result.openCases.filter((n) => n !== result.caseNumber),
  };
}

/**
 * The changes a placement made, in the order the former separate calls made them (openCase or joinCase,
 * then addItems): `case_opened` or `order_added`, one `debtor_address_set` per recorded address,
 * one `invoice_added` per inserted invoice, `merged` when the order joined a case another order
 * opened (which sends `invoice.updated`, decision case-system-webhook-events). A repeat reports
 * only what it recorded.
 *
 * @example
 * placementChanges(input, result).map((c) => c.kind); // ["case_opened", "debtor_address_set", "invoice_added"]
 */
export function placementChanges(input: CasePlacementInput, result: PlacementResult): CaseChange[] {
  const owner = {
    caseNumber: result.caseNumber,
    organisationId: input.organisationId,
    orderId: input.orderId,
    reference: input.reference,
    at: input.at,
  };
  const changes: CaseChange[] = [];
  if (result.outcome === "opened") changes.push({ ...owner, kind: "case_opened" });
  if (result.outcome === "joined") changes.push({ ...owner, kind: "order_added" });
  for (const debtorIndex of result.addresses)
    changes.push({ ...owner, kind: "debtor_address_set", debtorIndex });
  const numbers = new Map(input.invoices.map((i) => [i.invoiceIndex, i.invoice.invoice_number]));
  for (const position of result.invoices) {
    changes.push({
      ...owner,
      kind: "invoice_added",
      invoiceNumber: numbers.get(position) ?? "",
      merged: !result.caseNew,
    });
  }
  return changes;
}
