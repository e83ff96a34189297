import type { Order } from "../orders/order-schema.js";
import type { Principal } from "../principal.js";
import type { HandlersPendingOption, PendingHandlerRun } from "../store-port.js";
import type { OrderEngine, OrderEngineLogger } from "./order-engine.js";
import type { AfterHandler } from "./order-hooks.js";
import type { OrderAction } from "./request-order-action.js";

/**
 * Runs every handler of `handlers` on `event`, each on its own, and resolves once all settled: one
 * that throws or rejects stops none of the others and is logged with `what`, the handler's name and
 * the ids in `details`. Never rejects.
 *
 * @example
 * await runAfterHandlers(hooks.orderPlaced, event, logger, "order handler", { orderId: order.id });
 */
export function runAfterHandlers<E>(
  handlers: readonly AfterHandler<E>[],
  event: E,
  logger: OrderEngineLogger,
  what: string,
  details: Record<string, unknown>,
): Promise<void> {
  const runs = handlers.map((handler, index) => {
    const failed = (error: unknown) =>
      logger.warn(`${what} failed; the request it follows stands`, {
        ...details,
        handler: handler.name || `#${index + 1}`,
        error: error instanceof Error ? error.message : String(error),
      });
    try {
      const result = handler(event);
      if (result !== undefined && typeof (result as Promise<void>).then === "function") {
        return (result as Promise<void>).then(undefined, failed);
      }
    } catch (error) {
      failed(error);
    }
    return undefined;
  });
  return Promise.all(runs).then(() => undefined);
}

/**
 * Runs a host's after-handlers for a stored order or control request (decision orders-host-hooks),
 * off the request's path: they start on a later turn of the event loop (a timer), so not even a
 * handler that blocks before its first `await` delays the answer, and each runs on its own, so one
 * that throws or rejects stops none of the others. A failure is logged with `what` and the ids in
 * `details`, never passed to the client: the order stands. `settled` is called once every handler
 * settled (the engine clears the pending run there); what it throws is logged.
 *
 * At least once: the engine calls this after the row is stored, again when a retry finds the row
 * stored (the event's `replayed`), and the handler sweeper runs the handlers of a row whose run
 * never settled (the process stopped first), so a handler must tolerate running twice for one order.
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
  settled?: () => Promise<void>,
): void {
  if (handlers.length === 0) return;
  setTimeout(() => {
    void runAfterHandlers(handlers, event, logger, what, details)
      .then(settled)
      .catch((error: unknown) =>
        // The run stays pending: the sweeper runs the handlers again after its grace period.
        logger.warn(`${what} ran, but its pending run was not cleared; it may run again`, {
          ...details,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
  }, 0);
}

/**
 * What the engine writes with a row when the host has handlers of `kind`: that they are pending,
 * for whom, since now (decision orders-host-hooks). Nothing without handlers, so a host without
 * them stores nothing more.
 *
 * @example
 * await engine.store.orders.insert(record, handlersPending(engine, "order", principal));
 */
export function handlersPending(
  engine: OrderEngine,
  kind: PendingHandlerRun["kind"],
  principal: Principal,
): HandlersPendingOption | undefined {
  const handlers = kind === "order" ? engine.hooks.orderPlaced : engine.hooks.actionRequested;
  // The clock of the run is the real one: the sweeper compares it with its own.
  return handlers.length === 0 ? undefined : { handlersPending: { principal, since: new Date() } };
}

/**
 * Starts the engine's `orderPlaced` handlers for a stored order (or one a retry found stored,
 * `replayed`) and returns the order, so the engine's last line stays `return …`. Once they settled
 * the order's pending run is cleared.
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
    { orderId: order.id },
    () => engine.store.pendingHandlers.remove("order", order.id),
  );
  return order;
}

/**
 * Starts the engine's `actionRequested` handlers for a stored control request and returns it; once
 * they settled its pending run is cleared.
 *
 * @example
 * return afterActionStored(engine, toOrderAction(stored, caseNumber), principal, false, stored.id);
 */
export function afterActionStored(
  engine: OrderEngine,
  action: OrderAction,
  principal: Principal,
  replayed: boolean,
  actionId: string,
): OrderAction {
  dispatchAfterHandlers(
    engine.hooks.actionRequested,
    { action, orderId: action.id, principal, replayed },
    engine.logger,
    "control request handler",
    { orderId: action.id, action: action.action },
    () => engine.store.pendingHandlers.remove("action", actionId),
  );
  return action;
}
