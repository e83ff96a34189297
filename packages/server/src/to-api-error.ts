import { isIncassoError, storeUnavailableIn } from "@incasso/core";
import { ApiError, isApiError, validationError } from "./api-error.js";
import { statusOfCode } from "./error-codes.js";

/**
 * The answer while the database cannot be reached: 503 `service_unavailable` with `Retry-After`
 * (RFC 9110 §15.6.4: a temporary condition; §10.2.3), for the error itself or one that has it as
 * a cause (a case system on the same database, wrapped by the order engine). Never a 500: nothing
 * is wrong with the request, and the same request (with the same Idempotency-Key) may simply be
 * sent again (decision store-unavailable-503). Undefined for any other error.
 *
 * @example
 * const answer = storeUnavailableApiError(new StoreUnavailableError("gone")); // status 503
 */
export function storeUnavailableApiError(error: unknown): ApiError | undefined {
  const unavailable = storeUnavailableIn(error);
  if (unavailable === undefined) return undefined;
  return new ApiError({
    status: 503,
    code: "service_unavailable",
    detail: `The service cannot reach its database right now. Retry in ${unavailable.retryAfterSeconds} s; send a POST again with the same Idempotency-Key.`,
    headers: { "Retry-After": String(unavailable.retryAfterSeconds) },
    cause: error,
  });
}

/**
 * The one mapping from a thrown value to the API's {@link ApiError}, used by every route. Every
 * error of the project has the one shape (IncassoError of @incasso/core; @incasso/wik and
 * @incasso/rol-router brand theirs the same way) and is recognised by its brand (never
 * `instanceof`: two copies of a package may be loaded). One rule answers them all (decision
 * server-error-code-table):
 *
 * - an ApiError: unchanged;
 * - a store out of reach, itself or as a cause (a case system on the same database, wrapped by
 *   the order engine as `upstream_error`): 503 {@link storeUnavailableApiError};
 * - a branded error: the status it fixes itself (`status`), else its code's in the one code table
 *   (ERROR_CODES, spec section Errors plus our recorded codes); with no status it is not the
 *   client's doing and is returned unchanged (a 500 `internal_error`);
 * - a 422 about one request `field`: `validation_error` with that field in `errors[]`;
 * - a 422 whose code is not itself a 422 code of the table (the court lookup's `invalid_request`):
 *   `validation_error` with the error's `errors[]`;
 * - otherwise a problem with the error's code, message as `detail`, `errors[]` and `headers`
 *   (`Retry-After`).
 *
 * Anything else is returned unchanged, and the problem mapper makes it a 500 `internal_error`.
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { throw toApiError(e); }
 */
export function toApiError(error: unknown): unknown {
  if (isApiError(error)) return error;
  // Before the code: an upstream_error caused by the database is the 503, since the remedy is the
  // same retry and a 502 would blame a system that is not at fault.
  const unavailable = storeUnavailableApiError(error);
  if (unavailable !== undefined) return unavailable;
  if (!isIncassoError(error)) return error;
  const status = error.status ?? statusOfCode(error.code);
  if (status === undefined) return error;
  if (status === 422 && error.field !== undefined) {
    return validationError([{ field: error.field, code: error.code, message: error.message }]);
  }
  const errors = [...(error.errors ?? [])];
  // A host rule's own code (decision orders-host-hooks) is in this API's table, not the built-in one.
  const hostCode = (error as { hostCode?: unknown }).hostCode === true;
  if (status === 422 && !hostCode && statusOfCode(error.code) !== 422) return validationError(errors);
  const headers = { ...error.headers };
  return new ApiError({
    status,
    code: error.code,
    detail: error.message,
    ...(errors.length > 0 ? { errors } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    cause: error,
  });
}
