import type { Order } from "../orders/order-schema.js";
import type { Principal } from "../principal.js";
import type { OrderEngine, OrderEngineLogger } from "./order-engine.js";
import type { AfterHandler } from "./order-hooks.js";
import type { OrderAction } from "./request-order-action.js";

/**
 * Runs a host's after-handlers for a stored order or control request (decision orders-host-hooks),
 * off the request's path: they start on a later turn of the event loop (a timer), so not even a
 * handler that blocks before its first `await` delays the answer, and each runs on its own, so one
 * that throws or rejects stops none of the others. A failure is logged with `what` and the ids in
 * `details`, never passed to the client: the order stands.
 *
 * At least once: the engine calls this after the row is stored, and again when a retry finds the
 * row stored (the event's `replayed`), so a handler must tolerate running twice for one order.
 *
 * @example
 * dispatchAfterHandlers(engine.hooks.orderPlaced, { order, principal, replayed: false }, engine.logger,
 *   "order handler", { orderId: order.id });
 */
export function dispatchAfterHandlers<E>(
  handlers: readonly AfterHandler<E>[],
  event: E,
  logger: OrderEngineLogger,
  what: string,
  details: Record<string, unknown>,
): void {
  if (handlers.length === 0) return;
  setTimeout(() => {
    handlers.forEach((handler, index) => {
      const failed = (error: unknown) =>
        logger.warn(`${what} failed; the request it follows stands`, {
          ...details,
          handler: handler.name || `#${index + 1}`,
          error: error instanceof Error ? error.message : String(error),
        });
      try {
        const result = handler(event);
        if (result !== undefined && typeof (result as Promise<void>).then === "function") {
          (result as Promise<void>).then(undefined, failed);
        }
      } catch (error) {
        failed(error);
      }
    });
  }, 0);
}

/**
 * Starts the engine's `orderPlaced` handlers for a stored order (or one a retry found stored,
 * `replayed`) and returns the order, so the engine's last line stays `return …`.
 *
 * @example
 * return afterOrderStored(engine, toOrder(stored), principal, false);
 */
export function afterOrderStored(
  engine: OrderEngine,
  order: Order,
  principal: Principal,
  replayed: boolean,
): Order {
  dispatchAfterHandlers(
    engine.hooks.orderPlaced,
    { order, principal, replayed },
    engine.logger,
    "order handler",
    {
      orderId: order.id,
    },
  );
  return order;
}

/**
 * Starts the engine's `actionRequested` handlers for a stored control request and returns it.
 *
 * @example
 * return afterActionStored(engine, toOrderAction(stored, caseNumber), principal, false);
 */
export function afterActionStored(
  engine: OrderEngine,
  action: OrderAction,
  principal: Principal,
  replayed: boolean,
): OrderAction {
  dispatchAfterHandlers(
    engine.hooks.actionRequested,
    { action, orderId: action.id, principal, replayed },
    engine.logger,
    "control request handler",
    { orderId: action.id, action: action.action },
  );
  return action;
}
