import { isOrderEngineError, type OrderEngineErrorCode } from "@incasso/core";
import { ApiError } from "../api-error.js";
import { storeUnavailableApiError } from "../core-errors.js";

/**
 * The HTTP status of each order engine error code (spec section Errors; 409 `order_has_no_case`,
 * 409 `test_key_on_live_order`, 409 `idempotency_conflict` of the order engine and 503 `attachment_check_unavailable` are recorded decisions).
 *
 * @example
 * ORDER_ENGINE_ERROR_STATUS.upstream_error; // 502
 */
export const ORDER_ENGINE_ERROR_STATUS: Readonly<Record<OrderEngineErrorCode, number>> = Object.freeze({
  validation_error: 422,
  amount_too_high: 422,
  wik_letter_required: 422,
  invalid_attachment: 422,
  unknown_creditor: 422,
  creditor_feature_disabled: 403,
  not_found: 404,
  order_has_no_case: 409,
  test_key_on_live_order: 409,
  idempotency_conflict: 409,
  upstream_error: 502,
  attachment_check_unavailable: 503,
});

/**
 * Turns an OrderEngineError into the API's ApiError (by `code`, never `instanceof`): the status
 * from {@link ORDER_ENGINE_ERROR_STATUS}, the field failures as `errors[]`, and `Retry-After` for
 * a 503. An `upstream_error` caused by the database being out of reach (a case system on the
 * same database) is the 503 of {@link storeUnavailableApiError} instead: the remedy is the same
 * retry, and a 502 would blame a system that is not at fault. Anything else is returned unchanged.
 *
 * @example
 * try { await submitOrder(engine, principal, body); } catch (e) { throw orderEngineErrorToApiError(e); }
 */
export function orderEngineErrorToApiError(error: unknown): unknown {
  if (!isOrderEngineError(error)) return error;
  const unavailable = storeUnavailableApiError(error);
  if (unavailable !== undefined) return unavailable;
  return new ApiError({
    status: ORDER_ENGINE_ERROR_STATUS[error.code] ?? 500,
    code: error.code,
    detail: error.message,
    ...(error.errors.length > 0 ? { errors: error.errors } : {}),
    ...(error.retryAfterSeconds !== null
      ? { headers: { "Retry-After": String(error.retryAfterSeconds) } }
      : {}),
    cause: error,
  });
}
