/**
 * The format of a case number of the built-in case system: the year the case was opened (in the
 * Netherlands), a hyphen, and a running number of at least six digits from one database sequence
 * shared by all organisations (decision case-system-case-numbers). Example: `2026-000123`.
 *
 * @example
 * CASE_NUMBER_PATTERN.test("2026-000123"); // true
 */
export const CASE_NUMBER_PATTERN = /^\d{4}-\d{6,}$/;

/**
 * Writes a case number: `year-NNNNNN`, zero-padded to six digits, longer when the number needs it
 * (never cut).
 *
 * @example
 * formatCaseNumber(2026, 123); // "2026-000123"
 * formatCaseNumber(2026, 1234567); // "2026-1234567"
 */
export function formatCaseNumber(year: number, sequence: number): string {
  if (!Number.isSafeInteger(year) || year < 1000 || year > 9999)
    throw new RangeError(`year ${year} is not a four-digit year`);
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`sequence ${sequence} is not a positive integer`);
  return `${year}-${String(sequence).padStart(6, "0")}`;
}
