import { WikError } from "../errors.js";

/** The two debtor types of the spec's POST /tools/wik body. */
export type DebtorType = "consumer" | "business";

/**
 * Throws `invalid_amount` unless `value` is a safe integer of at least 1 cent (spec, Limits:
 * "Tool principal: minimum 1 cent"). Safe integers keep every cent exact.
 */
export function assertPrincipal(value: unknown, field: string): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new WikError("invalid_amount", `${field} must be an integer number of cents of at least 1`, field);
  }
}

/** Reads a debtor type, `undefined` giving the spec's default `consumer`. */
export function readDebtorType(value: unknown, field: string): DebtorType {
  if (value === undefined) return "consumer";
  if (value === "consumer" || value === "business") return value;
  throw new WikError("invalid_debtor_type", `${field} must be "consumer" or "business"`, field);
}

/** Reads an optional boolean, `undefined` giving `false`. */
export function readBoolean(value: unknown, field: string, code: "invalid_option"): boolean {
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  throw new WikError(code, `${field} must be a boolean`, field);
}

/** Throws `invalid_option` unless `value` is an object (or undefined, read as `{}`). */
export function readOptions<T extends object>(value: T | undefined, field = "options"): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null) {
    throw new WikError("invalid_option", `${field} must be an object`, field);
  }
  return value;
}

/** Reads an option that must be one of `allowed`, `undefined` giving `fallback`. */
export function readChoice<T extends string>(
  value: unknown,
  allowed: readonly T[],
  fallback: T,
  field: string,
): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new WikError("invalid_option", `${field} must be one of ${allowed.join(", ")}`, field);
}
