/**
 * Time-outs and caps of the reference server's connections (decision server-slow-clients). Every
 * field is optional; the defaults suit the spec's 40 MB uploads over slow links.
 *
 * @example
 * const limits: ConnectionLimits = { headersTimeoutMs: 20_000, maxConnections: 1000 };
 */
export interface ConnectionLimits {
  /**
   * Longest the request line and headers may take to arrive, in ms. Default 20 000: headers are a
   * few KB even on a slow link. Past it the client gets 408 `request_timeout` and the connection is
   * closed.
   */
  headersTimeoutMs?: number;
  /**
   * Longest a whole request (headers and body) may take to arrive, in ms. Default 600 000 (10
   * minutes): 40 MB at about 0.55 Mbit/s. The answer itself may take longer (the spec asks
   * clients to wait at least 120 s for POST /orders); only receiving is timed.
   */
  requestTimeoutMs?: number;
  /**
   * Slowest average body rate accepted once the grace period is over, in bytes per second.
   * Default 8192 (8 KB/s). A body that stalls, or trickles in below it, is cut with 408.
   * `0` turns the check off.
   */
  minBodyBytesPerSecond?: number;
  /** How long a body may arrive at any rate before the minimum rate applies, in ms. Default 10 000. */
  bodyGraceMs?: number;
  /**
   * Open connections at most; one more gets 503 `server_busy` with `Retry-After` and is closed.
   * Default 1000 (below the usual limit of 1024 open files, so the database keeps its sockets).
   */
  maxConnections?: number;
  /** How long an idle keep-alive connection stays open, in ms. Default 5 000 (node's). */
  keepAliveTimeoutMs?: number;
}

/**
 * The defaults of {@link ConnectionLimits}.
 *
 * @example
 * DEFAULT_CONNECTION_LIMITS.requestTimeoutMs; // 600000
 */
export const DEFAULT_CONNECTION_LIMITS: Readonly<Required<ConnectionLimits>> = Object.freeze({
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 600_000,
  minBodyBytesPerSecond: 8192,
  bodyGraceMs: 10_000,
  maxConnections: 1000,
  keepAliveTimeoutMs: 5_000,
});

/**
 * The limits in force: defaults filled in, each value checked (a positive integer; `0` only where
 * it turns a check off).
 *
 * @example
 * resolveConnectionLimits({ maxConnections: 50 }).headersTimeoutMs; // 20000
 * resolveConnectionLimits({ maxConnections: 0 }); // throws RangeError
 */
export function resolveConnectionLimits(limits: ConnectionLimits = {}): Required<ConnectionLimits> {
  const resolved: Required<ConnectionLimits> = { ...DEFAULT_CONNECTION_LIMITS };
  for (const key of Object.keys(DEFAULT_CONNECTION_LIMITS) as (keyof ConnectionLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    const zeroAllowed = key === "minBodyBytesPerSecond";
    if (!Number.isSafeInteger(value) || value < (zeroAllowed ? 0 : 1)) {
      throw new RangeError(
        `${key} must be a ${zeroAllowed ? "non-negative" : "positive"} integer, got ${String(value)}`,
      );
    }
    resolved[key] = value;
  }
  if (resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    // node refuses this pair itself (headersTimeout must not exceed requestTimeout).
    throw new RangeError("headersTimeoutMs must not exceed requestTimeoutMs");
  }
  return resolved;
}
