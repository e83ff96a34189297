/**
 * The `RateLimit-*` headers of an answer (spec, POST /orders rule 2; the other protected endpoints
 * and the public tools send them too).
 *
 * @example
 * const { remaining, reset } = order.$response.rateLimit ?? { remaining: 1, reset: 0 };
 */
export interface RateLimit {
  /** `RateLimit-Limit`: requests allowed per window. */
  limit: number;
  /** `RateLimit-Remaining`: requests left in the current window. */
  remaining: number;
  /** `RateLimit-Reset`: seconds until the window resets. */
  reset: number;
}

/**
 * What the client knows about the answer behind a result or an error, apart from its body.
 *
 * @example
 * const order = await client.orders.create(body);
 * console.log(order.$response.status, order.$response.requestId, order.$response.rateLimit?.remaining);
 */
export interface ResponseMeta {
  /** HTTP status of the final answer. */
  status: number;
  /** `X-Request-Id`, to quote to the operator. */
  requestId: string | null;
  /** The `RateLimit-*` headers, or null when the answer had none (GET /ping). */
  rateLimit: RateLimit | null;
  /** The Idempotency-Key the request carried, or null. */
  idempotencyKey: string | null;
  /** True when the API answered with a stored response (`Idempotency-Replayed: true`). */
  replayed: boolean;
  /** Attempts made, 1 when the first one was answered. */
  attempts: number;
  /** Every header of the final answer. */
  headers: Headers;
}

/**
 * A result of a client method: the spec's wire object, plus a non-enumerable `$response` with the
 * answer's status, request id and rate limit. `$response` is left out by `JSON.stringify`, by
 * object spread and by `Object.keys`, so the object stays the wire object the API sent.
 *
 * @example
 * const order: WithResponse<Order> = await client.orders.create(body);
 * if (order.$response.rateLimit?.remaining === 0) await pause(order.$response.rateLimit.reset);
 */
export type WithResponse<T> = T & { readonly $response: ResponseMeta };
