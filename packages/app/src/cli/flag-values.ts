import type { FlagValues } from "./flag-spec.js";
import { UsageError } from "./usage-error.js";

/**
 * A flag's text value, or undefined.
 *
 * @example
 * text(values, "organisation"); // "Acme BV"
 */
export function text(values: FlagValues, flag: string): string | undefined {
  const value = values[flag];
  return typeof value === "string" ? value : undefined;
}

/**
 * A flag that must be given and not blank.
 *
 * @example
 * required(values, "organisation");
 */
export function required(values: FlagValues, flag: string): string {
  const value = text(values, flag);
  if (value === undefined || value.trim() === "") throw new UsageError(`--${flag} is required`);
  return value;
}

/**
 * A whole number of 1 or more, or undefined when the flag is absent. A negative number or zero is
 * refused with a message that says so (issue 17: `--amount-cents -5` must not be "ambiguous").
 *
 * @example
 * positiveInt(values, "limit"); // 20 from --limit 20
 * positiveInt(values, "per-minute", "a positive whole number", 9); // at most 999999999
 */
export function positiveInt(
  values: FlagValues,
  flag: string,
  unit = "a positive whole number",
  digits = 12,
): number | undefined {
  const value = text(values, flag);
  if (value === undefined) return undefined;
  if (/^-\s*[0-9]/.test(value.trim())) {
    throw new UsageError(`--${flag} must be ${unit} (1 or more); ${value} is negative`);
  }
  if (!new RegExp(`^[1-9][0-9]{0,${digits - 1}}$`).test(value))
    throw new UsageError(`--${flag} must be ${unit}, not ${value}`);
  return Number(value);
}

/**
 * One of the allowed words, or undefined when the flag is absent.
 *
 * @example
 * oneOf(values, "mode", ["live", "test"] as const); // "test"
 */
export function oneOf<T extends string>(
  values: FlagValues,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  const value = text(values, flag);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be ${allowed.join(" or ")}, not ${value}`);
  }
  return value as T;
}
