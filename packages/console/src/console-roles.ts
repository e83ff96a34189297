import type { OperatorRole } from "./operator-directory.js";

/**
 * The parts of the console, for the role check.
 *
 * @example
 * const section: ConsoleSection = "keys";
 */
export type ConsoleSection =
  | "cases"
  | "deliveries"
  | "udf"
  | "keys"
  | "operators"
  | "endpoints"
  | "organisations";

// Issue 19, item 2: a handler works cases and sees deliveries; keys, operators, webhook endpoint
// settings and organisations are an admin's.
const ADMIN_ONLY: ReadonlySet<ConsoleSection> = new Set(["keys", "operators", "endpoints", "organisations"]);

/**
 * Whether an operator of this role may open a section of the console.
 *
 * @example
 * mayUse("handler", "keys"); // false
 * mayUse("admin", "keys"); // true
 */
export function mayUse(role: OperatorRole, section: ConsoleSection): boolean {
  return role === "admin" || !ADMIN_ONLY.has(section);
}
