import type { ResponseMeta } from "./response-meta.js";

// Symbol.for keys are shared by every copy of this package in a process, so two installed
// versions still recognise each other's errors (CONTRIBUTING: never rely on instanceof).
const API_ERROR_BRAND = Symbol.for("@incasso/client.IncassoApiError");
const CONNECTION_ERROR_BRAND = Symbol.for("@incasso/client.IncassoConnectionError");

/**
 * One field failure of a 422 answer (spec, Errors: `errors[]` with `field`, `code`, `message`).
 *
 * @example
 * const failure: FieldError = { field: "invoices[0].amount_cents", code: "too_small", message: "..." };
 */
export interface FieldError {
  /** Path of the field, such as `invoices[0].amount_cents` or `Idempotency-Key`. */
  field: string;
  code: string;
  message: string;
}

/**
 * The API answered with an error: an RFC 9457 `application/problem+json` body, or (from something
 * between the client and the API, such as a proxy) a non-2xx answer without one, which gets the
 * code `unexpected_response`.
 *
 * Test with {@link isIncassoApiError}, which also works across two installed copies of the package.
 *
 * @example
 * import { createIncassoClient, isIncassoApiError } from "@incasso/client";
 * try {
 *   await client.orders.create(body);
 * } catch (error) {
 *   if (isIncassoApiError(error) && error.code === "validation_error") {
 *     for (const f of error.errors) console.warn(f.field, f.code); // invoices[0].amount_cents too_small
 *   } else throw error;
 * }
 */
export class IncassoApiError extends Error {
  override readonly name = "IncassoApiError";
  /** Stable machine-readable code from the problem body (`validation_error`, `rate_limited`, ...). */
  readonly code: string;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The problem type URI; `about:blank` when the answer had no problem body. */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** Per-field failures of a 422; empty for every other error. */
  readonly errors: readonly FieldError[];
  /** `X-Request-Id` of the answer, to quote to the operator. */
  readonly requestId: string | null;
  /** Seconds from `Retry-After` (429, 409 `idempotency_in_progress`), else null. */
  readonly retryAfter: number | null;
  /** Status, headers and rate limit of the answer. */
  readonly response: ResponseMeta;
  /** The problem body as received, including members this version does not know. */
  readonly problem: Readonly<Record<string, unknown>>;
  readonly [API_ERROR_BRAND] = true;

  constructor(problem: Record<string, unknown>, response: ResponseMeta, retryAfter: number | null) {
    const code = typeof problem.code === "string" ? problem.code : "unexpected_response";
    const title = typeof problem.title === "string" ? problem.title : `HTTP ${response.status}`;
    const detail = typeof problem.detail === "string" ? problem.detail : "";
    super(`${response.status} ${code}: ${detail || title}`);
    this.code = code;
    this.status = response.status;
    this.type = typeof problem.type === "string" ? problem.type : "about:blank";
    this.title = title;
    this.detail = detail;
    this.errors = Array.isArray(problem.errors) ? problem.errors.filter(isFieldError) : [];
    this.requestId = response.requestId;
    this.retryAfter = retryAfter;
    this.response = response;
    this.problem = problem;
  }
}

function isFieldError(value: unknown): value is FieldError {
  const v = value as Partial<FieldError> | null;
  return typeof v === "object" && v !== null && typeof v.field === "string" && typeof v.code === "string";
}

/**
 * True for an {@link IncassoApiError} of any installed copy of `@incasso/client`.
 *
 * @example
 * if (isIncassoApiError(error) && error.status === 404) return null;
 */
export function isIncassoApiError(error: unknown): error is IncassoApiError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[API_ERROR_BRAND] === true
  );
}

/**
 * Why no answer arrived: `network_error` (the connection failed or was cut) or `timeout` (no
 * answer within `timeoutMs`). Thrown once the retries allowed for the call are used up.
 *
 * @example
 * import type { IncassoConnectionErrorCode } from "@incasso/client";
 * const code: IncassoConnectionErrorCode = "timeout";
 */
export type IncassoConnectionErrorCode = "network_error" | "timeout";

/**
 * No answer arrived from the API. For `orders.create` and `creditors.create` the request may still
 * have been processed: call again with the same `idempotencyKey` (the error carries it) and the
 * API answers with the stored result instead of making a second order.
 *
 * @example
 * try {
 *   await client.orders.create(body, { idempotencyKey });
 * } catch (error) {
 *   if (isIncassoConnectionError(error)) console.warn(error.code, error.attempts); // "network_error" 4
 * }
 */
export class IncassoConnectionError extends Error {
  override readonly name = "IncassoConnectionError";
  readonly code: IncassoConnectionErrorCode;
  /** How many attempts were made. */
  readonly attempts: number;
  /** The Idempotency-Key the attempts carried, or null for calls without one. */
  readonly idempotencyKey: string | null;
  readonly [CONNECTION_ERROR_BRAND] = true;

  constructor(
    code: IncassoConnectionErrorCode,
    message: string,
    details: { attempts: number; idempotencyKey: string | null; cause: unknown },
  ) {
    super(message, { cause: details.cause });
    this.code = code;
    this.attempts = details.attempts;
    this.idempotencyKey = details.idempotencyKey;
  }
}

/**
 * True for an {@link IncassoConnectionError} of any installed copy of `@incasso/client`.
 *
 * @example
 * if (isIncassoConnectionError(error) && error.code === "timeout") retryLater(error.idempotencyKey);
 */
export function isIncassoConnectionError(error: unknown): error is IncassoConnectionError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[CONNECTION_ERROR_BRAND] === true
  );
}
