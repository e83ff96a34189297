import { IncassoError } from "./incasso-error.js";

/**
 * Seconds a client is asked to wait (`Retry-After`, RFC 9110 §10.2.3) when the database cannot be
 * reached: about one connection time-out of the store, so a retry meets a pool that has had the
 * chance to reconnect (decision store-unavailable-503).
 */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The database could not be reached, or dropped the connection while a statement ran: nothing can
 * be said about the request except that it may be retried. Stores throw it in place of their
 * driver's connection errors; the server answers 503 `service_unavailable` with `Retry-After`,
 * never 500 (decision store-unavailable-503). An {@link IncassoError} with code `store_unavailable`
 * and the `Retry-After` header.
 *
 * @example
 * throw new StoreUnavailableError("The database did not answer.", { cause: error });
 */
export class StoreUnavailableError extends IncassoError<"store_unavailable"> {
  /** Seconds for `Retry-After`. */
  readonly retryAfterSeconds: number;
  /** Brand checked by {@link isStoreUnavailable}; `instanceof` is unreliable across package copies. */
  readonly isIncassoStoreUnavailable = true as const;

  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    const retryAfterSeconds = options.retryAfterSeconds ?? STORE_RETRY_AFTER_SECONDS;
    super("store_unavailable", message, {
      headers: { "Retry-After": String(retryAfterSeconds) },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "StoreUnavailableError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** How far down a chain of causes to look: a store error wrapped by a case system wrapped by the engine. */
const MAX_CAUSE_DEPTH = 5;

/**
 * The {@link StoreUnavailableError} behind a value, if there is one: the value itself or one of
 * its `cause`s. A case system on the same database fails with the store's error as its cause, and
 * the order engine wraps that again (`upstream_error`); the database being gone is still the
 * reason, and a retry is still the remedy.
 *
 * @example
 * const unavailable = storeUnavailableIn(error);
 * if (unavailable) headers.set("retry-after", String(unavailable.retryAfterSeconds));
 */
export function storeUnavailableIn(value: unknown): StoreUnavailableError | undefined {
  let current = value;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH; depth++) {
    if (typeof current !== "object" || current === null) return undefined;
    if ((current as { isIncassoStoreUnavailable?: unknown }).isIncassoStoreUnavailable === true) {
      return current as StoreUnavailableError;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether a value is, or was caused by, a {@link StoreUnavailableError}.
 *
 * @example
 * try { await store.orders.find(id); } catch (e) { if (isStoreUnavailable(e)) return retryLater(); throw e; }
 */
export function isStoreUnavailable(value: unknown): boolean {
  return storeUnavailableIn(value) !== undefined;
}
