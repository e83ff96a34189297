import { isCoreError, isOrderEngineError, storeUnavailableIn } from "@incasso/core";
import { isRolRouterError } from "@incasso/rol-router";
import { isWikError } from "@incasso/wik";
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
 * The one mapping from a thrown value to the API's {@link ApiError}, used by every route: each
 * package's error is recognised by its brand (never `instanceof`: two copies of a package may be
 * loaded) and answered with the status of its code in the one code table (ERROR_CODES, spec
 * section Errors plus our recorded codes). Anything unknown is returned unchanged, and
 * the problem mapper makes it a 500 `internal_error`.
 *
 * - an ApiError: unchanged;
 * - a store out of reach, itself or as a cause: 503 {@link storeUnavailableApiError};
 * - a CoreError: its code's status; a 422 about one request field becomes `validation_error` with
 *   that field in `errors[]`;
 * - an OrderEngineError: its code's status, its field failures as `errors[]`, `Retry-After` for a
 *   503;
 * - an error of the WIK calculator: a range limit of one field is 422 `validation_error` (the
 *   client's input, after schema validation), an unreadable request 400 `invalid_request`
 *   (decision wik-error-codes);
 * - an error of the court lookup: `invalid_request` is 422 `validation_error` with its `errors[]`.
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { throw toApiError(e); }
 */
export function toApiError(error: unknown): unknown {
  if (isApiError(error)) return error;
  if (isOrderEngineError(error)) {
    // An upstream_error caused by the database (a case system on the same database) is the 503:
    // the remedy is the same retry, and a 502 would blame a system that is not at fault.
    const unavailable = storeUnavailableApiError(error);
    if (unavailable !== undefined) return unavailable;
    return new ApiError({
      status: statusOfCode(error.code) ?? 500,
      code: error.code,
      detail: error.message,
      ...(error.errors.length > 0 ? { errors: error.errors } : {}),
      ...(error.retryAfterSeconds !== null
        ? { headers: { "Retry-After": String(error.retryAfterSeconds) } }
        : {}),
      cause: error,
    });
  }
  if (isCoreError(error)) {
    const status = statusOfCode(error.code) ?? 500;
    if (status === 422 && error.field !== undefined) {
      return validationError([{ field: error.field, code: error.code, message: error.message }]);
    }
    return new ApiError({ status, code: error.code, detail: error.message, cause: error });
  }
  if (isWikError(error)) {
    if (error.field !== undefined && error.code !== "invalid_option") {
      return validationError([{ field: error.field, code: error.code, message: error.message }]);
    }
    if (error.code === "invalid_request") {
      return new ApiError({ code: "invalid_request", detail: error.message });
    }
    return error;
  }
  if (isRolRouterError(error) && error.code === "invalid_request") {
    return validationError(error.errors ?? []);
  }
  return storeUnavailableApiError(error) ?? error;
}
