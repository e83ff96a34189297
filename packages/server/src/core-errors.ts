import { type CoreErrorCode, isCoreError, storeUnavailableIn } from "@incasso/core";
import { ApiError, isApiError, validationError } from "./api-error.js";

/** HTTP status of each core error code (spec section Errors where it names one). */
export const CORE_ERROR_STATUS: Record<CoreErrorCode, number> = {
  creditor_exists: 409,
  creditor_feature_disabled: 403,
  organisation_not_found: 404,
  organisation_conflict: 409,
  key_not_found: 404,
  invalid_key_settings: 422,
  invalid_udf_field: 422,
  udf_field_not_found: 404,
  invalid_cursor: 422,
};

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
 * Turns a CoreError into the API's ApiError (by `code`, never `instanceof`), and a store that
 * cannot be reached into 503 {@link storeUnavailableApiError}; anything else is returned
 * unchanged. A core error about one request field becomes a 422 `validation_error` with that field
 * in `errors[]`.
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { throw toApiError(e); }
 */
export function toApiError(error: unknown): unknown {
  if (isApiError(error)) return error;
  if (!isCoreError(error)) return storeUnavailableApiError(error) ?? error;
  const status = CORE_ERROR_STATUS[error.code] ?? 500;
  if (status === 422 && error.field !== undefined) {
    return validationError([{ field: error.field, code: error.code, message: error.message }]);
  }
  return new ApiError({ status, code: error.code, detail: error.message, cause: error });
}
