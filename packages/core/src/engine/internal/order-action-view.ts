import type { ControlRequest } from "../../orders/validate-control-request.js";
import type { OrderActionRecord } from "../../store-port.js";
import type { OrderAction } from "../request-order-action.js";

// The message for the client, Dutch like the warnings; it depends on the action alone, so a stored
// action is answered with the words it was first answered with.
const MESSAGES: Record<ControlRequest["action"], string> = {
  hold: "Het verzoek om de incasso te pauzeren is als taak in het dossier gezet voor een behandelaar.",
  withdraw:
    "Het verzoek om de opdracht in te trekken is als taak in het dossier gezet; een behandelaar beoordeelt het. Intrekken kan gevolgen hebben voor de no-cure-no-pay-afspraak.",
  payments:
    "De gemelde betaling is als taak in het dossier gezet; een behandelaar boekt haar en berekent saldo en kosten opnieuw.",
};

/**
 * The 202 body of a stored action: the same for the first answer, a retry that finds it, and the
 * handler sweeper that runs its handlers again.
 *
 * @example
 * const action = toOrderAction(stored, "2026-000001");
 */
export function toOrderAction(stored: OrderActionRecord, caseNumber: string): OrderAction {
  return {
    id: stored.orderId,
    object: "order_action",
    action: stored.action,
    status: "requested",
    case: { case_number: caseNumber },
    ...(stored.amountCents !== null && stored.paymentDate !== null
      ? { amount_cents: stored.amountCents, payment_date: stored.paymentDate }
      : {}),
    message: MESSAGES[stored.action],
    created_at: stored.createdAt.toISOString(),
  };
}
