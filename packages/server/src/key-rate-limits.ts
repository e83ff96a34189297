import { DEFAULT_API_RATE_LIMIT } from "@incasso/core";
import { ApiError } from "./api-error.js";
import { requirePrincipal } from "./auth.js";
import type { RouteGuard } from "./plugin.js";
import { type RateLimiter, type RateLimitState, setRateLimitHeaders } from "./rate-limit.js";
import { isMultiWindowRateLimiter } from "./store-rate-limiter.js";

const MINUTE = 60;
const DAY = 86_400;

function rateLimited(state: RateLimitState, what: string): ApiError {
  return new ApiError({
    status: 429,
    code: "rate_limited",
    detail: `Rate limit of ${state.limit} requests per ${what} reached for this key; retry in ${state.resetSeconds} s.`,
    headers: { "Retry-After": String(state.resetSeconds) },
  });
}

/**
 * Options of {@link ordersRateLimit}.
 *
 * @example
 * const options: OrdersRateLimitOptions = { limiter: new StoreRateLimiter(store) };
 */
export interface OrdersRateLimitOptions {
  limiter: RateLimiter;
}

/**
 * The guard of POST /orders (spec section Limits: 30 per minute and 500 per day per key by default,
 * the key's own numbers when the operator set them). Every response, 201 and every 4xx alike, gets
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` of the minute window (spec: POST
 * /orders rule 2); over either limit: 429 `rate_limited` with `Retry-After` until that window ends.
 * A request refused by the minute limit does not count against the day. Runs after authentication.
 *
 * @example
 * defineRoute({ method: "POST", path: "/orders", auth: "required", guards: [ordersRateLimit({ limiter })], ... });
 */
export function ordersRateLimit(options: OrdersRateLimitOptions): RouteGuard {
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const now = ctx.now();
    const minuteKey = `orders:${principal.keyId}:minute`;
    const dayKey = `orders:${principal.keyId}:day`;
    if (isMultiWindowRateLimiter(options.limiter)) {
      // Both windows in one statement: one round trip and one commit instead of two.
      const [minute, day] = await options.limiter.hitAll(
        [
          { key: minuteKey, limit: principal.rateLimits.perMinute, windowSeconds: MINUTE },
          { key: dayKey, limit: principal.rateLimits.perDay, windowSeconds: DAY },
        ],
        now,
      );
      if (minute === undefined) throw new Error("The rate limiter counted no window.");
      setRateLimitHeaders(ctx.responseHeaders, minute);
      if (!minute.allowed) throw rateLimited(minute, "minute");
      if (day !== undefined && !day.allowed) throw rateLimited(day, "day (UTC)");
      return;
    }
    const minute = await options.limiter.hit(minuteKey, principal.rateLimits.perMinute, MINUTE, now);
    setRateLimitHeaders(ctx.responseHeaders, minute);
    if (!minute.allowed) throw rateLimited(minute, "minute");
    const day = await options.limiter.hit(dayKey, principal.rateLimits.perDay, DAY, now);
    if (!day.allowed) throw rateLimited(day, "day (UTC)");
  };
}

/**
 * Options of {@link keyRateLimit}.
 *
 * @example
 * const options: KeyRateLimitOptions = { limiter, perMinute: 120 };
 */
export interface KeyRateLimitOptions {
  limiter: RateLimiter;
  /** Requests per minute per key; default 120 (docs/decisions/keys-rate-limits.md). */
  perMinute?: number;
  /** Endpoints with the same bucket share one count; default `api`. */
  bucket?: string;
}

/**
 * The per-key guard of the other protected endpoints (GET /orders, control requests, creditors);
 * the spec says they "can also return 429" and leaves the numbers to us. Same headers and 429 as
 * `ordersRateLimit`.
 *
 * @example
 * defineRoute({ method: "GET", path: "/creditors", auth: "required", guards: [keyRateLimit({ limiter })], ... });
 */
export function keyRateLimit(options: KeyRateLimitOptions): RouteGuard {
  const perMinute = options.perMinute ?? DEFAULT_API_RATE_LIMIT.perMinute;
  const bucket = options.bucket ?? "api";
  return async (ctx) => {
    const principal = requirePrincipal(ctx);
    const state = await options.limiter.hit(
      `${bucket}:${principal.keyId}:minute`,
      perMinute,
      MINUTE,
      ctx.now(),
    );
    setRateLimitHeaders(ctx.responseHeaders, state);
    if (!state.allowed) throw rateLimited(state, "minute");
  };
}
