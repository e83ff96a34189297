import { IncassoError } from "../incasso-error.js";
import type { FieldError } from "../orders/field-error.js";

/**
 * Every code an {@link OrderEngineError} can carry, stable across releases. The spec names most of
 * them (section Errors); `order_has_no_case` (its 409 "code not shown") and
 * `attachment_check_unavailable` are ours (decisions orders-engine-control-requests and
 * orders-engine-pdf-engine-busy).
 *
 * | code | HTTP | when |
 * |---|---|---|
 * | `validation_error`, `amount_too_high`, `wik_letter_required`, `invalid_attachment`, `unknown_creditor` | 422 | the order or request is refused; see `errors` |
 * | `creditor_feature_disabled` | 403 | a `creditor` object without creditor management |
 * | `not_found` | 404 | no such order for the key |
 * | `order_has_no_case` | 409 | a control request on a test-mode order |
 * | `idempotency_conflict` | 409 | the order id derived from an Idempotency-Key is another key's order that this key may not read |
 * | `upstream_error` | 502 | the case system failed; nothing was stored |
 * | `attachment_check_unavailable` | 503 | the PDF engine could not check the attachments |
 *
 * @example
 * ORDER_ENGINE_ERROR_CODES.includes("upstream_error"); // true
 */
export const ORDER_ENGINE_ERROR_CODES = [
  "validation_error",
  "amount_too_high",
  "wik_letter_required",
  "invalid_attachment",
  "unknown_creditor",
  "creditor_feature_disabled",
  "not_found",
  "order_has_no_case",
  "test_key_on_live_order",
  "idempotency_conflict",
  "upstream_error",
  "attachment_check_unavailable",
] as const;

/**
 * One of {@link ORDER_ENGINE_ERROR_CODES}.
 *
 * @example
 * const code: OrderEngineErrorCode = "order_has_no_case";
 */
export type OrderEngineErrorCode = (typeof ORDER_ENGINE_ERROR_CODES)[number];

/**
 * A refusal by the order engine, with a stable `code`, a message for the client's developer and,
 * for 422 codes, every field failure in `errors` (spec Errors: `field`, `code`, `message`): an
 * {@link IncassoError}, whose `headers` carry `Retry-After` when `retryAfterSeconds` is set.
 *
 * @example
 * throw new OrderEngineError("unknown_creditor", "The creditor is not found in this account.", {
 *   errors: [{ field: "creditor.reference", code: "unknown_creditor", message: "no creditor with this reference" }],
 * });
 */
export class OrderEngineError extends IncassoError<OrderEngineErrorCode> {
  /** For a 503: seconds for a `Retry-After` header (RFC 9110 §10.2.3); null otherwise. */
  readonly retryAfterSeconds: number | null;
  /** Brand checked by {@link isOrderEngineError}; `instanceof` is unreliable across package copies. */
  readonly isIncassoOrderEngineError = true as const;

  constructor(
    code: OrderEngineErrorCode,
    message: string,
    options: { errors?: FieldError[]; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(code, message, {
      ...(options.errors === undefined ? {} : { errors: options.errors }),
      ...(options.retryAfterSeconds === undefined
        ? {}
        : { headers: { "Retry-After": String(options.retryAfterSeconds) } }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = "OrderEngineError";
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

/**
 * Whether a value is an {@link OrderEngineError}, also when it comes from another copy of this package.
 *
 * @example
 * try { await submitOrder(engine, principal, body); } catch (e) { if (isOrderEngineError(e)) console.log(e.code); }
 */
export function isOrderEngineError(value: unknown): value is OrderEngineError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoOrderEngineError?: unknown }).isIncassoOrderEngineError === true
  );
}
