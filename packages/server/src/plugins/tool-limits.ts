import type { RouteGuard } from "../plugin.js";
import { MemoryRateLimiter, type RateLimiter, rateLimitGuard } from "../rate-limit.js";

/**
 * Per-IP limits of the two public tools. The spec leaves the numbers open; ours are recorded in
 * docs/decisions/server-tool-rate-limits.md.
 *
 * @example
 * const limits: ToolRateLimitOptions = { perMinute: 120 };
 */
export interface ToolRateLimitOptions {
  /** Requests per IP per minute, per tool. Default 60. */
  perMinute?: number;
  /** Where the counters live; default one in-memory limiter per API. */
  limiter?: RateLimiter;
}

/** The per-IP guard for one tool. Clients whose IP the transport does not know share one bucket. */
export function toolRateLimit(tool: string, options: ToolRateLimitOptions = {}): RouteGuard {
  return rateLimitGuard({
    limiter: options.limiter ?? new MemoryRateLimiter(),
    limit: options.perMinute ?? 60,
    windowSeconds: 60,
    key: (ctx) => `tool:${tool}:${ctx.clientIp ?? "unknown"}`,
  });
}
