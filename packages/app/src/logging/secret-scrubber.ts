/** What a scrubbed secret is replaced with. */
export const REDACTED = "[redacted]";

// What a secret looks like wherever it turns up in a log value (decision operations-logs): API keys
// (spec section Authentication: svc_live_/svc_test_ and 32 characters), webhook signing secrets
// (whsec_), the credential of any Authorization header, and OpenAI keys (sk-…).
const SECRET_PATTERNS: readonly RegExp[] = [
  /svc_(?:live|test)_[0-9A-Za-z]+/g,
  /whsec_[0-9A-Za-z_-]+/g,
  /\b(Bearer|Basic)\s+[^\s"',;]+/gi,
  /\bsk-[0-9A-Za-z_-]{16,}/g,
];

/**
 * A string with everything in it that looks like a key or a secret replaced by `[redacted]`, and
 * each of `exact` (secrets known to this process, such as OPENAI_API_KEY's value) too.
 *
 * @example
 * scrubString("Bearer svc_test_abc"); // "Bearer [redacted]"
 */
export function scrubString(value: string, exact: readonly string[] = []): string {
  let out = value;
  for (const secret of exact) if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_match, scheme: string | undefined) =>
      typeof scheme === "string" && /^(bearer|basic)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED,
    );
  }
  return out;
}

/**
 * A copy of a log value with every string scrubbed by {@link scrubString}, through objects, arrays
 * and errors (an error becomes `{ type, message, stack }`); other values as they are.
 *
 * @example
 * scrubSecrets({ note: "key svc_live_0123", n: 1 }); // { note: "key [redacted]", n: 1 }
 */
export function scrubSecrets(value: unknown, exact: readonly string[] = [], depth = 0): unknown {
  if (typeof value === "string") return scrubString(value, exact);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (value instanceof Date) return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrubString(value.message, exact),
      ...(value.stack ? { stack: scrubString(value.stack, exact) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, exact, depth + 1));
  // Defined, not assigned: `out[k] = v` with a key `__proto__` (JSON.parse makes it an own key of a
  // client's metadata) would set the copy's prototype instead (decision orders-reserved-keys).
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubSecrets(v, exact, depth + 1)]));
}
