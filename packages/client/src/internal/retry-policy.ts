/**
 * Which failures a call may be retried after, by what the call does on the server.
 *
 * - `keyed`: a POST with an Idempotency-Key (orders.create, creditors.create, and hold, withdraw and
 *   payments: docs/decisions/orders-control-idempotency.md). A repeat with the same key and content
 *   gets the stored answer (docs/decisions/idempotency-keys.md), so every failure
 *   that may have left the request unanswered or unfinished is worth a retry: no answer, a 5xx
 *   other than 501 (5xx answers are not kept, so the retry runs again; the spec advises exactly
 *   this for 502 `upstream_error`), 429, and 409 `idempotency_in_progress` (the first attempt still
 *   runs: its lease is told in `Retry-After`).
 * - `safe`: reads and the two public tools, which change nothing: no answer, 5xx other than 501, 429.
 */
export type RetryClass = "keyed" | "safe";

/** Resolved retry settings of a client. */
export interface RetrySettings {
  max: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterSeconds: number;
}

/** What ended an attempt. */
export type AttemptOutcome = { kind: "no_answer" } | { kind: "answer"; status: number; code: string | null };

/** Whether an attempt that ended in `outcome` may be repeated for a call of class `retryClass`. */
export function isRetryable(retryClass: RetryClass, outcome: AttemptOutcome): boolean {
  if (outcome.kind === "no_answer") return true;
  const { status, code } = outcome;
  if (status === 429) return true;
  // 501 Not Implemented will not change on a retry; every other 5xx may (RFC 9110 §15.6).
  if (status >= 500 && status <= 599) return status !== 501;
  return retryClass === "keyed" && status === 409 && code === "idempotency_in_progress";
}

/**
 * Milliseconds to wait before retry number `retry` (0 for the first retry): `Retry-After` when the
 * answer had one, with up to 10% added so clients that were told the same moment do not all come
 * back in the same millisecond; otherwise exponential backoff with "equal jitter" (half fixed, half
 * random), capped at `maxDelayMs`.
 */
export function retryDelayMs(
  settings: RetrySettings,
  retry: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== null) {
    const base = retryAfterSeconds * 1000;
    return Math.round(base + base * 0.1 * random());
  }
  const backoff = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** retry);
  return Math.round(backoff / 2 + (backoff / 2) * random());
}

/**
 * `Retry-After` in seconds (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; null when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP-date names its day and month ("Wed, 25 Nov 2026 10:00:30 GMT"); Date.parse would also
  // take "-1" or "2026" as a date.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
