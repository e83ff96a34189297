import { IncassoError } from "./incasso-error.js";

/**
 * Every code a {@link CoreError} can carry. Stable across releases; the server maps each to an HTTP
 * status (spec section Errors) and clients may rely on them.
 */
export const CORE_ERROR_CODES = [
  "creditor_exists",
  "creditor_feature_disabled",
  "organisation_not_found",
  "organisation_conflict",
  "key_not_found",
  "invalid_key_settings",
  "invalid_udf_field",
  "udf_field_not_found",
  "invalid_cursor",
] as const;

/**
 * A machine-readable {@link CoreError} code.
 *
 * @example
 * const code: CoreErrorCode = "creditor_exists";
 */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/**
 * An error of the order engine or its ports with a stable `code`: an {@link IncassoError} whose
 * `field`, when set, names the request field (`reference`). The server turns it into an
 * RFC 9457 problem; the CLI prints its message.
 *
 * @example
 * throw new CoreError("creditor_exists", "A creditor with reference ACME-1 already exists.");
 */
export class CoreError extends IncassoError<CoreErrorCode> {
  /** Brand checked by {@link isCoreError}, so no caller needs `instanceof` across packages. */
  readonly isIncassoCoreError = true as const;

  constructor(code: CoreErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "CoreError";
  }
}

/**
 * Whether a value is a {@link CoreError}, also when it comes from another copy of this package.
 *
 * @example
 * try { await createCreditor(store, principal, body); } catch (e) { if (isCoreError(e)) console.log(e.code); }
 */
export function isCoreError(value: unknown): value is CoreError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoCoreError?: unknown }).isIncassoCoreError === true
  );
}
