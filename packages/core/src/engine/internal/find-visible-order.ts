import { isOrderId } from "../../orders/order-id.js";
import type { Principal } from "../../principal.js";
import type { OrderRecord } from "../../store-port.js";
import type { OrderEngine } from "../order-engine.js";
import { OrderEngineError } from "../order-engine-error.js";

/**
 * The order with this id if the key may see it, else 404 `not_found`. Unknown ids, malformed ids,
 * another organisation's orders and (for a key with visibility `own`) another key's orders all get
 * the same error, so a response never hints that an order exists (spec GET /orders/{orderId}: "404
 * (no such order for the account)"; Authentication rule 5).
 */
export async function findVisibleOrder(
  engine: Pick<OrderEngine, "store">,
  principal: Principal,
  orderId: string,
): Promise<OrderRecord> {
  const record = isOrderId(orderId)
    ? await engine.store.orders.findById(principal.organisationId, orderId)
    : undefined;
  if (record === undefined || (principal.visibility === "own" && record.keyId !== principal.keyId)) {
    throw new OrderEngineError("not_found", "No such order for this key.");
  }
  return record;
}
