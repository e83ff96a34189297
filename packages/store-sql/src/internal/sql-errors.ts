/** Whether a database error is a unique violation (SQLSTATE 23505), on pg and on PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

/** A timestamp parameter: ISO text is read the same by pg and PGlite. */
export function ts(date: Date): string {
  return date.toISOString();
}

/** A timestamp column as a Date, whichever way the driver returned it. */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}
