import type { IncassoStore } from "@incasso/core";
import type { RateLimiter, RateLimitState } from "./rate-limit.js";

/** How often, at most, a limiter deletes ended windows. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * A {@link RateLimiter} whose counters live in the database, so every server instance on the same
 * database counts against one limit. Fixed windows aligned to the clock, like the in-memory one;
 * ended windows are pruned as it goes (at most every ten minutes per process).
 *
 * @example
 * const limiter = new StoreRateLimiter(store);
 * await limiter.hit("orders:key_1", 30, 60, new Date()); // { allowed: true, limit: 30, remaining: 29, ... }
 */
export class StoreRateLimiter implements RateLimiter {
  readonly #store: IncassoStore;
  #lastPrune = 0;

  constructor(store: IncassoStore) {
    this.#store = store;
  }

  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitState> {
    const t = now.getTime();
    const windowMs = windowSeconds * 1000;
    const start = t - (t % windowMs);
    const end = start + windowMs;
    const count = await this.#store.rateLimits.increment(
      `${key}:${windowSeconds}`,
      new Date(start),
      new Date(end),
    );
    if (t - this.#lastPrune >= PRUNE_EVERY_MS) {
      this.#lastPrune = t;
      // Housekeeping must never fail a request.
      this.#store.rateLimits.prune(now).catch(() => undefined);
    }
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil((end - t) / 1000)),
    };
  }
}
