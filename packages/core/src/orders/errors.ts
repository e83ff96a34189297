import { IncassoError } from "../incasso-error.js";

/**
 * Stable codes of {@link OrdersError}: a helper was called with input that validation would have
 * refused (a programming error in the caller, not a client's mistake).
 *
 * @example
 * ORDERS_ERROR_CODES.includes("due_date_missing"); // true
 */
export const ORDERS_ERROR_CODES = ["due_date_missing", "invalid_argument"] as const;

/**
 * One of {@link ORDERS_ERROR_CODES}.
 *
 * @example
 * const code: OrdersErrorCode = "invalid_argument";
 */
export type OrdersErrorCode = (typeof ORDERS_ERROR_CODES)[number];

/**
 * Thrown by the order helpers when their input breaks their contract (an {@link IncassoError}). Client input never causes
 * it: {@link validateCreateOrder} and the other validators return their findings instead.
 *
 * @example
 * try { dueDateOf({ invoice_date: "2026-01-01" }); } catch (e) { if (isOrdersError(e)) console.log(e.code); }
 */
export class OrdersError extends IncassoError<OrdersErrorCode> {
  /** Brand checked by {@link isOrdersError}; `instanceof` is unreliable across package copies. */
  readonly isIncassoOrdersError = true as const;

  constructor(code: OrdersErrorCode, message: string) {
    super(code, message);
    this.name = "OrdersError";
  }
}

/**
 * Whether a value is an {@link OrdersError}, also when it comes from another copy of this package.
 *
 * @example
 * isOrdersError(new OrdersError("invalid_argument", "bad")); // true
 */
export function isOrdersError(value: unknown): value is OrdersError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoOrdersError?: unknown }).isIncassoOrdersError === true
  );
}
