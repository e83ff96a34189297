import type { z } from "zod";
import type { FieldError } from "../field-error.js";
import { formatFieldPath } from "./field-path.js";

type Issue = z.core.$ZodIssue;

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function toFieldError(issue: Issue, input: unknown): FieldError {
  const path = issue.path;
  const field = formatFieldPath(path);
  const value = valueAt(input, path);
  // An absent field is "required" whatever check noticed it (a type, an enum, a union).
  if (value === undefined && issue.code !== "custom" && issue.code !== "invalid_key") {
    return { field, code: "required", message: "is required" };
  }
  switch (issue.code) {
    case "custom": {
      const code = (issue.params as { code?: unknown } | undefined)?.code;
      return { field, code: typeof code === "string" ? code : "invalid", message: issue.message };
    }
    case "invalid_type":
      // zod reports a number that is not whole as invalid_type with the format "safeint"; the value
      // may be a query-string digit string coerced to a number first.
      if (issue.expected === "int" && (issue as { format?: unknown }).format !== undefined) {
        return { field, code: "not_integer", message: "must be a whole number" };
      }
      return {
        field,
        code: "invalid_type",
        message: `must be ${issue.expected}, got ${describeType(value)}`,
      };
    case "too_big": {
      const max = String(issue.maximum);
      if (issue.origin === "string")
        return { field, code: "too_long", message: `must be at most ${max} characters` };
      if (issue.origin === "array")
        return { field, code: "too_many_items", message: `must have at most ${max} items` };
      return { field, code: "too_large", message: `must be at most ${max}` };
    }
    case "too_small": {
      const min = String(issue.minimum);
      if (issue.origin === "string") return { field, code: "required", message: "must not be empty" };
      if (issue.origin === "array")
        return { field, code: "too_few_items", message: `must have at least ${min} item(s)` };
      return { field, code: "too_small", message: `must be at least ${min}` };
    }
    case "invalid_format":
      return { field, code: "invalid_format", message: formatMessage(issue.format) };
    case "invalid_value":
      return {
        field,
        code: "invalid_value",
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "invalid_union":
      return {
        field,
        code: "invalid_type",
        message: `must be a string, number or boolean, got ${describeType(value)}`,
      };
    case "invalid_key": {
      // A record key that fails its schema: a JSON key is always a string, so only a length rule
      // can refuse it. A schema with a rule of its own sets its code through a custom issue.
      const inner = issue.issues[0];
      const max = inner?.code === "too_big" ? ` of at most ${String(inner.maximum)} characters` : "";
      return { field, code: "key_too_long", message: `key must be a string${max}` };
    }
    default:
      return { field, code: issue.code, message: issue.message };
  }
}

function formatMessage(format: string): string {
  if (format === "date") return "must be a date written YYYY-MM-DD";
  if (format === "email") return "must be an e-mail address";
  return "has an invalid format";
}

/**
 * Maps zod issues to the spec's `errors[]` items, with codes that stay stable across zod releases
 * (decision orders-field-errors).
 */
export function issuesToFieldErrors(issues: ReadonlyArray<Issue>, input: unknown): FieldError[] {
  return issues.flatMap((issue) =>
    // A strict object names every unknown key in one issue; the spec's errors[] has one item a field.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          field: formatFieldPath([...issue.path, key]),
          code: "unknown_field",
          message: "is not a known field",
        }))
      : [toFieldError(issue, input)],
  );
}
