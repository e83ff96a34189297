import { CORE_ERROR_CODES, ORDER_ENGINE_ERROR_CODES } from "@incasso/core";
import { ERROR_CODES, type ErrorCode } from "./error-codes.js";

// Each package's codes must all be rows of the one table: a code missing there does not compile.
function statusesOf<C extends ErrorCode>(codes: readonly C[]): Readonly<Record<C, number>> {
  return Object.freeze(Object.fromEntries(codes.map((code) => [code, ERROR_CODES[code].status]))) as Record<
    C,
    number
  >;
}

/**
 * HTTP status of each core error code, taken from {@link ERROR_CODES}.
 *
 * @example
 * CORE_ERROR_STATUS.creditor_exists; // 409
 */
export const CORE_ERROR_STATUS = statusesOf(CORE_ERROR_CODES);

/**
 * The HTTP status of each order engine error code, taken from {@link ERROR_CODES}.
 *
 * @example
 * ORDER_ENGINE_ERROR_STATUS.upstream_error; // 502
 */
export const ORDER_ENGINE_ERROR_STATUS = statusesOf(ORDER_ENGINE_ERROR_CODES);
