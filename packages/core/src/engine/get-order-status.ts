import type { CaseState } from "../case-system-port.js";
import type { OrderStatus } from "../orders/order-status-schema.js";
import type { Principal } from "../principal.js";
import { amsterdamDate } from "./internal/amsterdam-date.js";
import { findVisibleOrder } from "./internal/find-visible-order.js";
import { toStatus } from "./internal/order-views.js";
import type { OrderEngine } from "./order-engine.js";
import { OrderEngineError } from "./order-engine-error.js";

/**
 * GET /orders/{orderId} as a call: the spec's OrderStatus object with the live case status and
 * open flag from the case system, `balance_due_cents` only once the case is in treatment, the
 * submission-time warnings and the control requests newest first. A test-mode order has no case:
 * status null, open false (decision orders-engine-status-without-case).
 *
 * @throws {OrderEngineError} `not_found` (404) for an unknown, malformed, other organisation's or
 * (visibility `own`) other key's id, all alike; `upstream_error` (502) when the case system fails.
 * @example
 * const status = await getOrderStatus(engine, principal, "ord_0123456789abcdef");
 * status.case.status; // "Nieuw"
 */
export async function getOrderStatus(
  engine: OrderEngine,
  principal: Principal,
  orderId: string,
  options: { now?: Date } = {},
): Promise<OrderStatus> {
  const record = await findVisibleOrder(engine, principal, orderId);
  const actions = await engine.store.orders.listActions(principal.organisationId, record.id);
  let state: CaseState | undefined;
  if (record.caseNumber !== null) {
    try {
      state = await engine.caseSystem.caseState({
        organisationId: principal.organisationId,
        caseNumber: record.caseNumber,
        today: amsterdamDate(options.now ?? new Date()),
      });
    } catch (error) {
      engine.logger.warn("case system failed to report a case state", {
        orderId: record.id,
        caseNumber: record.caseNumber,
        error: error instanceof Error ? error.message : String(error),
      });
      throw new OrderEngineError(
        "upstream_error",
        "The case system could not report the case status; retry later.",
        {
          cause: error,
        },
      );
    }
  }
  return toStatus(record, actions, state);
}
