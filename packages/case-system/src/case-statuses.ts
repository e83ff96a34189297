/**
 * The statuses of a case in the built-in case system (spec States and transitions: "examples are
 * Nieuw, In behandeling, Gesloten; the full list is not shown"; our list is recorded in
 * docs/decisions/case-system-statuses.md).
 *
 * | status | open | meaning |
 * |---|---|---|
 * | `Nieuw` | yes | just opened; collection costs and interest not yet set, no balance shown |
 * | `In behandeling` | yes | a handler is collecting; the balance includes costs and interest |
 * | `Aangehouden` | yes | paused by a handler (for example after a hold request) |
 * | `Gesloten` | no | finished; a closed case takes no new orders |
 *
 * @example
 * CASE_STATUSES.includes("In behandeling"); // true
 */
export const CASE_STATUSES = ["Nieuw", "In behandeling", "Aangehouden", "Gesloten"] as const;

/**
 * One of {@link CASE_STATUSES}.
 *
 * @example
 * const s: CaseStatus = "Nieuw";
 */
export type CaseStatus = (typeof CASE_STATUSES)[number];

/**
 * Whether a case with this status is open: every status but `Gesloten`.
 *
 * @example
 * isOpenStatus("Aangehouden"); // true
 */
export function isOpenStatus(status: CaseStatus): boolean {
  return status !== "Gesloten";
}

/**
 * Whether a value is one of {@link CASE_STATUSES}.
 *
 * @example
 * isCaseStatus("Gesloten"); // true
 * isCaseStatus("closed"); // false
 */
export function isCaseStatus(value: unknown): value is CaseStatus {
  return typeof value === "string" && (CASE_STATUSES as readonly string[]).includes(value);
}
