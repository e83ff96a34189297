import { toApiError } from "../to-api-error.js";

export { ORDER_ENGINE_ERROR_STATUS } from "../error-status.js";

/**
 * The order engine's errors as ApiErrors: the one mapping, {@link toApiError}, under the name
 * earlier releases exported.
 *
 * @deprecated Use `toApiError`, which recognises every package's errors.
 * @example
 * try { await submitOrder(engine, principal, body); } catch (e) { throw orderEngineErrorToApiError(e); }
 */
export function orderEngineErrorToApiError(error: unknown): unknown {
  return toApiError(error);
}
