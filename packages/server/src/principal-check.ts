const MODES = new Set(["live", "test"]);
const VISIBILITIES = new Set(["own", "organisation"]);
const isText = (value: unknown) => typeof value === "string" && value.length > 0 && value.length <= 200;
const isLimit = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * Why a host's principal cannot be used, or undefined when it can: every field a key's principal
 * has, of the right kind. A wrong `mode` or `visibility` would otherwise quietly widen what a
 * caller sees or does, so it is refused before any route runs.
 *
 * @example
 * principalProblem({ keyId: "usr_1" }); // "organisationId must be a non-empty string of at most 200 characters"
 */
export function principalProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "a principal must be an object";
  const p = value as Record<string, unknown>;
  for (const field of ["keyId", "organisationId", "organisationName", "creditorName"] as const) {
    if (!isText(p[field])) return `${field} must be a non-empty string of at most 200 characters`;
  }
  if (!MODES.has(p.mode as string)) return 'mode must be "live" or "test"';
  if (!VISIBILITIES.has(p.visibility as string)) return 'visibility must be "own" or "organisation"';
  if (typeof p.creditorManagement !== "boolean") return "creditorManagement must be a boolean";
  const limits = p.rateLimits as Record<string, unknown> | undefined;
  if (
    typeof limits !== "object" ||
    limits === null ||
    !isLimit(limits.perMinute) ||
    !isLimit(limits.perDay)
  ) {
    return "rateLimits must be { perMinute, perDay }, positive integers";
  }
  // The key id names rate-limit counters and idempotency records and is logged: printable ASCII.
  if (!/^[\x21-\x7e]+$/.test(p.keyId as string)) return "keyId must be printable ASCII without spaces";
  return undefined;
}
