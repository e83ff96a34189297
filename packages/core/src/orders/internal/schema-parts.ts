import { z } from "zod";

/** The parse payload handed to a refinement's `when`. */
type Payload = { value: unknown };

/**
 * Runs an object-level refinement whenever the value is a plain object, also when one of its
 * fields already failed: zod skips refinements after a type error by default, and the spec wants
 * all violations back together ("All violations come back together in errors[]").
 */
export const whenObject = { when: (payload: Payload) => isRecord(payload.value) };

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a value is a string with at least one non-whitespace character. */
export function hasText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * A required text field: at most `max` characters, not empty and not only whitespace (decision
 * orders-nullability: a blank required field counts as missing).
 */
export function requiredText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((s) => s === "" || s.trim() !== "", {
      message: "must not be blank",
      params: { code: "required" },
    });
}

/** An optional text field of at most `max` characters; blank is allowed. */
export function optionalText(max: number) {
  return z.string().max(max);
}

/** Adds a custom issue with a stable code at `path` below the refined value. */
export function addIssue(
  ctx: {
    addIssue: (issue: {
      code: "custom";
      message: string;
      path: PropertyKey[];
      params: { code: string };
    }) => void;
  },
  path: PropertyKey[],
  code: string,
  message: string,
): void {
  ctx.addIssue({ code: "custom", message, path, params: { code } });
}

/**
 * A calendar date written `YYYY-MM-DD` (spec: "Dates are YYYY-MM-DD") from year 1 on: ISO 8601's
 * year 0000 is no date PostgreSQL can store, and a client's input must never fail only where it is
 * stored (a 502 "retry later" for a request that can never pass).
 */
export function isoDate() {
  return z.iso.date().refine((s) => s >= "0001-01-01", {
    message: "must be a date from 0001-01-01 on",
    params: { code: "invalid_format" },
  });
}
