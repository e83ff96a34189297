/**
 * Stable machine-readable codes of every error this package throws. They never change meaning
 * within a major version, so hosts can switch on them (house rule: never rely on `instanceof`
 * across packages).
 *
 * | code | cause |
 * |---|---|
 * | `invalid_request` | the request is not an object |
 * | `invalid_amount` | a principal is not a safe integer of at least 1 cent |
 * | `invalid_debtor_type` | debtor type is not `consumer` or `business` |
 * | `invalid_date` | a date is not a real calendar date `YYYY-MM-DD` (or an invalid `Date`) |
 * | `invalid_option` | an option has the wrong type or an unknown value |
 * | `date_before_rate_table` | interest would run on a day before the bundled rate table starts |
 * | `beyond_rate_table` | interest would run past the table's last known date and the caller asked to refuse that |
 * | `result_out_of_range` | a resulting amount would not fit in a safe integer number of cents |
 *
 * @example
 * ```ts
 * import { WIK_ERROR_CODES } from "@incasso/wik";
 * WIK_ERROR_CODES.includes("invalid_amount"); // true
 * ```
 */
export const WIK_ERROR_CODES = [
  "invalid_request",
  "invalid_amount",
  "invalid_debtor_type",
  "invalid_date",
  "invalid_option",
  "date_before_rate_table",
  "beyond_rate_table",
  "result_out_of_range",
] as const;

/**
 * One of {@link WIK_ERROR_CODES}.
 *
 * @example
 * ```ts
 * import type { WikErrorCode } from "@incasso/wik";
 * const code: WikErrorCode = "invalid_date";
 * ```
 */
export type WikErrorCode = (typeof WIK_ERROR_CODES)[number];

/**
 * The error thrown by every function of this package on bad input. `code` is stable; `field`
 * names the offending input: the snake_case wire field (`amount_cents`, `due_date`, ...) when the
 * input came from a request object, else the camelCase option name. It implements the project's
 * shared error shape (brand `Symbol.for("incasso.error")`, `code`, `message`, `field`, `status`).
 *
 * @example
 * ```ts
 * import { calculateCollectionCosts, isWikError } from "@incasso/wik";
 * try {
 *   calculateCollectionCosts(0);
 * } catch (error) {
 *   if (isWikError(error)) console.log(error.code, error.field); // "invalid_amount" "principalCents"
 * }
 * ```
 */
export class WikError extends Error {
  /** Stable machine-readable code. */
  readonly code: WikErrorCode;
  /** The input field the error is about, when there is one. */
  readonly field: string | undefined;

  constructor(code: WikErrorCode, message: string, field?: string) {
    super(message);
    this.name = "WikError";
    this.code = code;
    this.field = field;
  }

  /**
   * The HTTP status a host answers with, part of the shared error shape: 422 for a refused input
   * field (a range limit checked after the host's schema; decision wik-error-codes); `undefined`
   * otherwise, leaving it to the host (`invalid_request` is its 400, `invalid_option` a host bug).
   */
  get status(): number | undefined {
    return this.field !== undefined && this.code !== "invalid_option" ? 422 : undefined;
  }
}

// The brand of the project's shared error shape (code, message, optional field, status): the
// global-registry symbol `Symbol.for("incasso.error")`, so a host recognises this error without
// this package depending on the host's error type, or on `instanceof`. On the prototype: it adds
// no member to the error itself.
Object.defineProperty(WikError.prototype, Symbol.for("incasso.error"), { value: true });

/**
 * Whether a value is an error thrown by this package. Checks the `name` and `code` instead of
 * `instanceof`, so it also works when two copies of the package are loaded.
 *
 * @example
 * ```ts
 * import { calculateCollectionCosts, isWikError } from "@incasso/wik";
 * try {
 *   calculateCollectionCosts(-5);
 * } catch (error) {
 *   isWikError(error); // true
 * }
 * ```
 */
export function isWikError(value: unknown): value is WikError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown };
  return (
    candidate.name === "WikError" &&
    typeof candidate.code === "string" &&
    (WIK_ERROR_CODES as readonly string[]).includes(candidate.code)
  );
}
