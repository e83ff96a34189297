/**
 * Stable error codes of this package.
 *
 * - `invalid_request`: the request object fails {@link RolRouterRequestSchema}; `errors` lists the
 *   fields. An HTTP host answers 422 `validation_error` (spec section Errors).
 * - `invalid_option`: an option is malformed (for example `today: "21-11-2026"`). A host bug: 500.
 * - `invalid_dataset`: a host-supplied dataset or override is inconsistent. A host bug: 500.
 *
 * @example
 * const code: RolRouterErrorCode = "invalid_request";
 */
export type RolRouterErrorCode = "invalid_request" | "invalid_option" | "invalid_dataset";

/**
 * One failed field, in the spec's `errors[]` shape (field path, code, message).
 *
 * @example
 * const e: RolRouterFieldError = { field: "woonplaats", code: "too_small", message: "Too small" };
 */
export interface RolRouterFieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * The package's single error type. Check it with {@link isRolRouterError} (house rule: never rely on
 * `instanceof` across packages) and branch on `code`. It implements the project's shared error
 * shape (brand `Symbol.for("incasso.error")`, `code`, `message`, `errors`, `status`).
 *
 * @example
 * try { lookupRolRouter({ woonplaats: "", naam: "Jansen" }); }
 * catch (e) { if (isRolRouterError(e) && e.code === "invalid_request") console.log(e.errors); }
 */
export class RolRouterError extends Error {
  readonly code: RolRouterErrorCode;
  readonly errors: RolRouterFieldError[];
  /** Brand checked by {@link isRolRouterError}. */
  readonly isRolRouterError = true as const;

  constructor(code: RolRouterErrorCode, message: string, errors: RolRouterFieldError[] = []) {
    super(message);
    this.name = "RolRouterError";
    this.code = code;
    this.errors = errors;
  }

  /**
   * The HTTP status a host answers with, part of the shared error shape: 422 for a refused request
   * (`invalid_request`, a `validation_error` with `errors`; spec section Errors); `undefined` for
   * the host bugs, which the host answers 500.
   */
  get status(): number | undefined {
    return this.code === "invalid_request" ? 422 : undefined;
  }
}

// The brand of the project's shared error shape (code, message, errors, status): the
// global-registry symbol `Symbol.for("incasso.error")`, so a host recognises this error without
// this package depending on the host's error type, or on `instanceof`. On the prototype: it adds
// no member to the error itself.
Object.defineProperty(RolRouterError.prototype, Symbol.for("incasso.error"), { value: true });

/**
 * Whether a value is a {@link RolRouterError}, by brand rather than `instanceof`, so it also works
 * when two copies of the package are loaded.
 *
 * @example
 * if (isRolRouterError(err)) console.log(err.code);
 */
export function isRolRouterError(value: unknown): value is RolRouterError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isRolRouterError?: unknown }).isRolRouterError === true &&
    typeof (value as { code?: unknown }).code === "string"
  );
}
