import type { RouteContext } from "./plugin.js";

/**
 * What the API reports of each request it answered, through `createApi({ onResponse })`: enough to
 * log one line per request and to count requests for metrics, and nothing a client sent beyond
 * its method (no path values, no query, no header, no body, never the key; decision
 * operations-logs).
 *
 * @example
 * const done: CompletedRequest = { requestId: "req_0123456789abcdef", method: "GET",
 *   route: "/api/v1/orders/:orderId", status: 200, durationMs: 4.2, keyId: "key_0123456789abcdef",
 *   keyMode: "test", replayed: false, orderCreated: null };
 */
export interface CompletedRequest {
  /** The id sent back in X-Request-Id. */
  requestId: string;
  method: string;
  /**
   * The route's pattern with the base path, such as `/api/v1/orders/:orderId`, never the raw
   * path (it holds ids, and every id would be a metric label of its own); null when no route
   * matched (404).
   */
  route: string | null;
  status: number;
  /** From the request's arrival to the response's headers, in milliseconds (not the body's sending). */
  durationMs: number;
  /** The id of the API key that authenticated the request; null without a valid key. */
  keyId: string | null;
  /** The mode of that key. */
  keyMode: "live" | "test" | null;
  /** Whether the response is the stored one of an earlier request (`Idempotency-Replayed: true`). */
  replayed: boolean;
  /** The order a POST /orders created now (not a replay): its type and mode. */
  orderCreated: { type: string; mode: string } | null;
}

/** Where the orders plugin notes the order a request created, for {@link CompletedRequest}. */
export const ORDER_CREATED_STATE_KEY = "incasso.orderCreated";

/**
 * Notes on the request that it created an order, for the completion report.
 *
 * @example
 * noteOrderCreated(ctx, { type: order.type, mode: order.mode });
 */
export function noteOrderCreated(
  ctx: Pick<RouteContext, "state">,
  order: { type: string; mode: string },
): void {
  ctx.state[ORDER_CREATED_STATE_KEY] = { type: order.type, mode: order.mode };
}
