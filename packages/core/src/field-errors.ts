import type { z } from "zod";
import type { FieldError } from "./orders/field-error.js";
import { formatFieldPath as formatPath } from "./orders/internal/field-path.js";
import { issuesToFieldErrors } from "./orders/internal/zod-issues.js";

/**
 * Writes a field path in the spec's notation (Errors: "path, such as `invoices[0].amount_cents`");
 * the body itself is `body`, and a key that is not a plain identifier is quoted in brackets.
 *
 * @example
 * formatFieldPath(["invoices", 0, "amount_cents"]); // "invoices[0].amount_cents"
 * formatFieldPath(["metadata", "order ref"]); // 'metadata["order ref"]'
 */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  return formatPath(path);
}

/**
 * Turns zod issues into the spec's `errors[]` items with the API's stable field codes (`required`,
 * `invalid_type`, `not_integer`, `too_long`, `too_small`, `too_large`, `invalid_format`,
 * `invalid_value`, `unknown_field`, ...; decision orders-field-errors). A refinement can set its own
 * code through `params: { code }`. Every endpoint reports field errors through this one mapping.
 *
 * @example
 * const r = z.object({ n: z.int() }).safeParse({});
 * if (!r.success) zodIssuesToFieldErrors(r.error.issues, {}); // [{ field: "n", code: "required", message: "is required" }]
 */
export function zodIssuesToFieldErrors(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  input: unknown,
): FieldError[] {
  return issuesToFieldErrors(issues, input);
}
