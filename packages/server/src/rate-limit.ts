import { ApiError } from "./api-error.js";
import type { RouteContext, RouteGuard } from "./plugin.js";

/**
 * The state of one rate-limit window after a hit.
 *
 * @example
 * const s: RateLimitState = { allowed: true, limit: 60, remaining: 59, resetSeconds: 60 };
 */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Counts hits per key in fixed windows. The in-memory one serves a single process; a shared store
 * (the database) serves several instances.
 *
 * @example
 * const state = await limiter.hit("wik:203.0.113.7", 60, 60, new Date());
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): RateLimitState | Promise<RateLimitState>;
}

/**
 * A fixed-window rate limiter in memory, for one process. Expired windows are swept as keys are
 * hit, and at most `maxKeys` windows are kept, so a flood of distinct keys cannot exhaust memory.
 *
 * @example
 * const limiter = new MemoryRateLimiter();
 * limiter.hit("ip:127.0.0.1", 2, 60, new Date()); // { allowed: true, remaining: 1, ... }
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number; windowMs: number }>();
  readonly #maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  hit(key: string, limit: number, windowSeconds: number, now: Date): RateLimitState {
    const t = now.getTime();
    const windowMs = windowSeconds * 1000;
    // Windows are aligned to the clock, so every client's minute resets at the same moment.
    const start = t - (t % windowMs);
    let w = this.#windows.get(key);
    if (!w || w.start !== start) {
      if (!w && this.#windows.size >= this.#maxKeys) this.#sweep(t);
      w = { start, count: 0, windowMs };
      this.#windows.set(key, w);
    }
    w.count++;
    const allowed = w.count <= limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - w.count),
      resetSeconds: Math.max(1, Math.ceil((start + windowMs - t) / 1000)),
    };
  }

  #sweep(t: number): void {
    for (const [k, w] of this.#windows) if (w.start + w.windowMs <= t) this.#windows.delete(k);
    // Still full of live windows: drop the oldest entries rather than grow without bound.
    for (const k of this.#windows.keys()) {
      if (this.#windows.size < this.#maxKeys) break;
      this.#windows.delete(k);
    }
  }
}

/**
 * Puts `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` of a window on a response
 * (spec section Errors; the header names follow the spec). The one place they are written: the
 * tools' guard and the key limits both call it.
 *
 * @example
 * setRateLimitHeaders(ctx.responseHeaders, { allowed: true, limit: 60, remaining: 59, resetSeconds: 42 });
 */
export function setRateLimitHeaders(headers: Headers, state: RateLimitState): void {
  headers.set("RateLimit-Limit", String(state.limit));
  headers.set("RateLimit-Remaining", String(state.remaining));
  headers.set("RateLimit-Reset", String(state.resetSeconds));
}

/**
 * Options of {@link rateLimitGuard}.
 *
 * @example
 * const opts: RateLimitGuardOptions = { limiter, limit: 60, windowSeconds: 60, key: (ctx) => `wik:${ctx.clientIp}` };
 */
export interface RateLimitGuardOptions {
  limiter: RateLimiter;
  limit: number;
  windowSeconds: number;
  key: (ctx: RouteContext) => string;
}

/**
 * A route guard that counts the request and puts `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` on every response, errors included; over the limit it answers 429
 * `rate_limited` with `Retry-After` (spec section Errors; the header names follow the spec).
 *
 * @example
 * defineRoute({ ..., guards: [rateLimitGuard({ limiter, limit: 60, windowSeconds: 60, key: (c) => c.clientIp ?? "unknown" })] });
 */
export function rateLimitGuard(options: RateLimitGuardOptions): RouteGuard {
  return async (ctx) => {
    const state = await options.limiter.hit(
      options.key(ctx),
      options.limit,
      options.windowSeconds,
      ctx.now(),
    );
    setRateLimitHeaders(ctx.responseHeaders, state);
    if (!state.allowed) {
      throw new ApiError({
        status: 429,
        code: "rate_limited",
        detail: `Rate limit of ${state.limit} requests per ${options.windowSeconds} seconds reached; retry in ${state.resetSeconds} s.`,
        headers: { "Retry-After": String(state.resetSeconds) },
      });
    }
  };
}

/** The documented headers of a rate-limited response, for the OpenAPI document. */
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed in the current window.", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
} as const;
