import type { z } from "zod";
import { type FieldError, validationError } from "./api-error.js";

/**
 * Writes a zod issue path in the spec's notation: `invoices[0].amount_cents`. The empty path (the
 * body itself) is written as `body`.
 *
 * @example
 * formatFieldPath(["invoices", 0, "amount_cents"]); // "invoices[0].amount_cents"
 */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "body" : out;
}

function issueCode(issue: z.core.$ZodIssue, input: unknown): string {
  const custom = (issue as { params?: { code?: unknown } }).params?.code;
  if (typeof custom === "string") return custom;
  switch (issue.code) {
    case "invalid_type":
      return input === undefined ? "required" : "invalid_type";
    case "unrecognized_keys":
      return "unknown_field";
    case "custom":
      return "invalid";
    default:
      return issue.code;
  }
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/**
 * Turns zod issues into the spec's `errors[]` items. A missing required field gets code `required`;
 * a refinement can set its own code through `params: { code }` (for example `amount_too_high`).
 *
 * @example
 * const r = z.object({ n: z.int() }).safeParse({});
 * if (!r.success) zodIssuesToFieldErrors(r.error.issues, {}); // [{ field: "n", code: "required", ... }]
 */
export function zodIssuesToFieldErrors(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  input: unknown,
): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    for (const key of keys) {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const value = valueAt(input, path);
      const code = issueCode(issue, value);
      out.push({
        field: formatFieldPath(path),
        code,
        message: code === "required" ? "is required" : issue.message,
      });
    }
  }
  return out;
}

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
