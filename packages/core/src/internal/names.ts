import { CoreError, type CoreErrorCode } from "../errors.js";

// Control characters (C0, DEL, C1) never belong in a name shown on a case or in a terminal.
export const CONTROL = /\p{Cc}/u;

/** A trimmed, non-empty name of at most `max` characters without control characters. */
export function cleanName(value: string, what: string, max: number, code: CoreErrorCode): string {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > max || CONTROL.test(trimmed)) {
    throw new CoreError(code, `${what} must be 1 to ${max} characters without control characters.`);
  }
  return trimmed;
}
