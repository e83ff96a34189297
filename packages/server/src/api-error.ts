import type { FieldError } from "@incasso/core";
import { statusOfCode } from "./error-codes.js";

// One entry of a problem's `errors[]`: the order engine's FieldError of @incasso/core, the one
// shape for every endpoint (spec section Errors: `field`, `code`, `message`).
export type { FieldError };

/**
 * What an {@link ApiError} is made of.
 *
 * @example
 * const init: ApiErrorInit = { status: 404, code: "not_found", detail: "No route for GET /nope." };
 */
export interface ApiErrorInit {
  /**
   * HTTP status code; by default the status of `code` in the code table (ERROR_CODES), or 500 for
   * a code not in it.
   */
  status?: number;
  /** Machine-readable code (spec section Errors), for example `validation_error`. */
  code: string;
  /** Short, stable summary of the problem type; defaults to a title derived from the status. */
  title?: string;
  /** Explanation of this occurrence. */
  detail: string;
  /** Per-field failures (RFC 9457 extension member used by the spec for 422). */
  errors?: FieldError[];
  /** Response headers that belong to this error, such as `Allow` or `Retry-After`. */
  headers?: Record<string, string>;
  /** Further extension members to include in the problem body. */
  extensions?: Record<string, unknown>;
  /** The underlying cause, for logs only; never sent to the client. */
  cause?: unknown;
}

/**
 * The single error type of the API. Throw it anywhere below a route and the problem mapper turns it
 * into an RFC 9457 `application/problem+json` response.
 *
 * Callers must not rely on `instanceof` across packages (house rule): use {@link isApiError}, which
 * checks the brand instead.
 *
 * @example
 * throw new ApiError({ status: 409, code: "creditor_exists", detail: "A creditor with reference ACME already exists." });
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string | undefined;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;
  /** Brand checked by {@link isApiError}. */
  readonly isIncassoApiError = true as const;

  constructor(init: ApiErrorInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.status = init.status ?? statusOfCode(init.code) ?? 500;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.extensions = init.extensions ?? {};
  }
}

/**
 * Whether a value is an {@link ApiError}, also when it comes from another copy of this package.
 *
 * @example
 * try { await work(); } catch (e) { if (isApiError(e) && e.status === 404) return null; throw e; }
 */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoApiError?: unknown }).isIncassoApiError === true
  );
}

/**
 * A 422 `validation_error` carrying every field failure at once (spec: "all violations come back
 * together in errors[]").
 *
 * @example
 * throw validationError([{ field: "amount_cents", code: "too_small", message: "must be at least 1" }]);
 */
export function validationError(errors: FieldError[], detail?: string): ApiError {
  return new ApiError({
    status: 422,
    code: "validation_error",
    detail: detail ?? `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`,
    errors,
  });
}
