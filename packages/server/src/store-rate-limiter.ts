import type { IncassoStore } from "@incasso/core";
import type { RateLimiter, RateLimitState } from "./rate-limit.js";

/**
 * One window of {@link MultiWindowRateLimiter.hitAll}.
 *
 * @example
 * const w: RateLimitWindow = { key: "orders:key_1:minute", limit: 30, windowSeconds: 60 };
 */
export interface RateLimitWindow {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * A limiter that counts several windows of one request at once (one database round trip).
 *
 * @example
 * const states = await limiter.hitAll([{ key: "m", limit: 30, windowSeconds: 60 }, { key: "d", limit: 500, windowSeconds: 86_400 }], new Date());
 */
export interface MultiWindowRateLimiter extends RateLimiter {
  /**
   * Hits each window in order and stops after the first that refuses: the result has one state per
   * window counted, the last of them the refusing one when the request is over a limit.
   */
  hitAll(windows: readonly RateLimitWindow[], now: Date): Promise<RateLimitState[]>;
}

/**
 * Whether a limiter can count several windows at once.
 *
 * @example
 * if (isMultiWindowRateLimiter(limiter)) await limiter.hitAll(windows, now);
 */
export function isMultiWindowRateLimiter(limiter: RateLimiter): limiter is MultiWindowRateLimiter {
  return typeof (limiter as Partial<MultiWindowRateLimiter>).hitAll === "function";
}

function bounds(now: Date, windowSeconds: number) {
  const t = now.getTime();
  const windowMs = windowSeconds * 1000;
  const start = t - (t % windowMs);
  return { t, start, end: start + windowMs };
}

function stateOf(count: number, limit: number, end: number, t: number): RateLimitState {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((end - t) / 1000)),
  };
}

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
export class StoreRateLimiter implements MultiWindowRateLimiter {
  readonly #store: IncassoStore;
  #lastPrune = 0;

  constructor(store: IncassoStore) {
    this.#store = store;
  }

  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitState> {
    const { t, start, end } = bounds(now, windowSeconds);
    const count = await this.#store.rateLimits.increment(
      `${key}:${windowSeconds}`,
      new Date(start),
      new Date(end),
    );
    this.#prune(now);
    return stateOf(count, limit, end, t);
  }

  /**
   * All windows in one statement (docs/decisions/storage-rate-limit-counters.md): a window after
   * one that refused is not counted.
   */
  async hitAll(windows: readonly RateLimitWindow[], now: Date): Promise<RateLimitState[]> {
    const spans = windows.map((w) => bounds(now, w.windowSeconds));
    const counts = await this.#store.rateLimits.incrementAll(
      windows.map((w, i) => ({
        bucket: `${w.key}:${w.windowSeconds}`,
        windowStart: new Date(spans[i]?.start ?? 0),
        expiresAt: new Date(spans[i]?.end ?? 0),
        limit: w.limit,
      })),
    );
    this.#prune(now);
    return counts.map((count, i) => {
      const w = windows[i] as RateLimitWindow;
      const span = spans[i] as ReturnType<typeof bounds>;
      return stateOf(count, w.limit, span.end, span.t);
    });
  }

  #prune(now: Date): void {
    const t = now.getTime();
    if (t - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = t;
    // Housekeeping must never fail a request.
    this.#store.rateLimits.prune(now).catch(() => undefined);
  }
}
