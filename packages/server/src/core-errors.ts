import { type CoreErrorCode, isCoreError } from "@incasso/core";
import { ApiError, validationError } from "./api-error.js";

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
 * Turns a CoreError into the API's ApiError (by `code`, never `instanceof`); anything else is
 * returned unchanged. A core error about one request field becomes a 422 `validation_error` with
 * that field in `errors[]`.
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { throw toApiError(e); }
 */
export function toApiError(error: unknown): unknown {
  if (!isCoreError(error)) return error;
  const status = CORE_ERROR_STATUS[error.code] ?? 500;
  if (status === 422 && error.field !== undefined) {
    return validationError([{ field: error.field, code: error.code, message: error.message }]);
  }
  return new ApiError({ status, code: error.code, detail: error.message, cause: error });
}
