import { isWellFormedApiKey } from "./api-key-format.js";

/** Longest Authorization header we look at; a real one is 48 characters. */
export const MAX_AUTHORIZATION_LENGTH = 256;

/**
 * Extracts the API key from an `Authorization` header value, strictly: exactly one `Bearer`
 * credential (the scheme name is case-insensitive, RFC 9110 §11.1), one space, and a token with the
 * exact key shape. Anything else (other schemes, several values joined by a proxy, control or
 * non-ASCII characters, overlong values) yields undefined, so the caller answers 401 and the
 * database is never asked about a string that cannot be a key.
 *
 * @example
 * parseBearerToken("Bearer svc_test_" + "a".repeat(32)); // "svc_test_aaaa..."
 * parseBearerToken("Basic dXNlcjpwYXNz"); // undefined
 */
export function parseBearerToken(header: string | null | undefined): string | undefined {
  if (header === null || header === undefined) return undefined;
  if (header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const match = /^[Bb][Ee][Aa][Rr][Ee][Rr] ([!-~]+)$/.exec(header);
  const token = match?.[1];
  if (token === undefined || !isWellFormedApiKey(token)) return undefined;
  return token;
}
