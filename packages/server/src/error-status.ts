import type { CoreErrorCode, OrderEngineErrorCode } from "@incasso/core";

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
