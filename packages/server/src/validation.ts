import { formatFieldPath, zodIssuesToFieldErrors } from "@incasso/core";
import type { z } from "zod";
import { validationError } from "./api-error.js";

// One mapping from zod issues to errors[] for the whole API, orders and tools alike.
export { formatFieldPath, zodIssuesToFieldErrors };

/**
 * Parses a value with a zod schema, or throws a 422 `validation_error` listing every failure.
 *
 * @example
 * const body = parseOrThrow(z.object({ amount_cents: z.int().min(1) }), { amount_cents: 5 });
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(zodIssuesToFieldErrors(result.error.issues, value));
}
