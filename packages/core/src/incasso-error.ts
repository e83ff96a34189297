import type { FieldError } from "./orders/field-error.js";

/**
 * The brand every error of the project carries, `Symbol.for("incasso.error")`: a symbol of the
 * global registry, so two copies of a package (and the standalone @incasso/wik and
 * @incasso/rol-router, which do not depend on this package) share it. Errors are recognised by it,
 * never by `instanceof` across packages (issue 21, item 1; architecture, Errors).
 *
 * @example
 * (new CoreError("key_not_found", "No key.") as unknown as Record<symbol, unknown>)[INCASSO_ERROR_BRAND]; // true
 */
export const INCASSO_ERROR_BRAND: symbol = Symbol.for("incasso.error");

/**
 * The shared error shape: what every branded error of the project has, whichever package threw
 * it. The server maps it to a problem with one rule (decision server-error-code-table).
 *
 * @example
 * const shape: IncassoErrorShape = { code: "not_found", message: "No such order." };
 */
export interface IncassoErrorShape {
  /** Stable machine-readable code; its HTTP status is the code table's, unless `status` says. */
  readonly code: string;
  /** Explanation for the developer (the problem's `detail`). */
  readonly message: string;
  /**
   * The HTTP status when the error fixes it itself (a standalone library whose codes are not in
   * the server's code table); absent, the code table decides.
   */
  readonly status?: number | undefined;
  /** The one request field the error is about, when there is one. */
  readonly field?: string | undefined;
  /** Every field failure (spec section Errors: `field`, `code`, `message`). */
  readonly errors?: readonly FieldError[];
  /** Response headers that belong to the error, such as `Retry-After` (RFC 9110 §10.2.3). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The underlying failure, for logs only. */
  readonly cause?: unknown;
}

/**
 * What an {@link IncassoError} is made of besides its code and message.
 *
 * @example
 * const options: IncassoErrorOptions = { field: "reference", cause: new Error("duplicate key") };
 */
export interface IncassoErrorOptions {
  /** The one request field the error is about. */
  field?: string;
  /** Every field failure. */
  errors?: FieldError[];
  /** Response headers that belong to the error, such as `Retry-After`. */
  headers?: Record<string, string>;
  /** The underlying failure. */
  cause?: unknown;
}

/**
 * The one error type of the project: code, message, optional field or field errors, optional
 * headers and cause, branded with {@link INCASSO_ERROR_BRAND}. CoreError, OrdersError,
 * OrderEngineError, WebhookError, StoreUnavailableError and the case system's CaseSystemError are
 * subclasses of it, each narrowing `code` to its own codes.
 *
 * @example
 * throw new IncassoError("not_found", "No order ord_0123456789abcdef for this key.");
 */
export class IncassoError<C extends string = string> extends Error implements IncassoErrorShape {
  /** Stable machine-readable code. */
  readonly code: C;
  /** The one request field the error is about, when there is one. */
  readonly field: string | undefined;
  /** Field failures; empty when the error concerns no field list. */
  readonly errors: FieldError[];
  /** Response headers that belong to the error; empty for most. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: C, message: string, options: IncassoErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "IncassoError";
    this.code = code;
    this.field = options.field;
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }
}

// On the prototype, not on each instance: the brand is inherited by every subclass and adds
// nothing to an error's own (logged, compared) members.
Object.defineProperty(IncassoError.prototype, INCASSO_ERROR_BRAND, { value: true });

/**
 * Whether a value carries the project's error brand, also when it comes from another copy of a
 * package or from @incasso/wik, @incasso/rol-router or @incasso/pdf-guard (which brand their
 * errors the same way).
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { if (isIncassoError(e)) console.log(e.code); }
 */
export function isIncassoError(value: unknown): value is IncassoErrorShape {
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { code?: unknown }).code !== "string") return false;
  return (value as Record<symbol, unknown>)[INCASSO_ERROR_BRAND] === true;
}
