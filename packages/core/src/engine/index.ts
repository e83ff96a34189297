export { deriveActionId } from "./derive-action-id.js";
export { deriveOrderId } from "./derive-order-id.js";
export { getOrderStatus } from "./get-order-status.js";
export { listOrders, type OrderList } from "./list-orders.js";
export {
  createOrderEngine,
  type OrderEngine,
  type OrderEngineLogger,
  type OrderEngineOptions,
} from "./order-engine.js";
export {
  isOrderEngineError,
  ORDER_ENGINE_ERROR_CODES,
  OrderEngineError,
  type OrderEngineErrorCode,
} from "./order-engine-error.js";
export { dispatchAfterHandlers, runAfterHandlers } from "./order-handlers.js";
export type {
  ActionRequestedEvent,
  ActionRule,
  ActionRuleInput,
  AfterHandler,
  OrderHooks,
  OrderPlacedEvent,
  OrderRule,
  OrderRuleInput,
  OrderRuleVerdict,
  RuleRefusal,
  RuleWarning,
} from "./order-hooks.js";
export {
  OrderRuleRefusal,
  type ResolvedOrderHooks,
  resolveOrderHooks,
  runActionRules,
  runOrderRules,
} from "./order-rules.js";
export {
  PLACEMENT_GRACE_MS,
  PLACEMENT_RECONCILE_INTERVAL_MS,
  type PlacementReconciler,
  type PlacementReconcilerParts,
  reconcilePlacements,
  startPlacementReconciler,
} from "./reconcile-placements.js";
export {
  type OrderAction,
  type RequestOrderActionOptions,
  requestOrderAction,
} from "./request-order-action.js";
export { type SubmitOrderOptions, submitOrder } from "./submit-order.js";
export {
  HANDLER_GRACE_MS,
  HANDLER_SWEEP_INTERVAL_MS,
  type HandlerSweeper,
  type HandlerSweeperParts,
  startHandlerSweeper,
  sweepPendingHandlers,
} from "./sweep-order-handlers.js";
