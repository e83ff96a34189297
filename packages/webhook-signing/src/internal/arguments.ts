import { WebhookArgumentError } from "../errors.js";

/**
 * Checks the secret(s) a caller configured. An empty string is refused: it is almost always an
 * unset environment variable, and an HMAC under an empty key is forgeable by anyone.
 */
export function assertSecrets(secret: unknown): readonly string[] {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new WebhookArgumentError("Expected a signing secret (string) or a non-empty array of secrets.");
  }
  for (const s of secrets) {
    if (typeof s !== "string" || s.length === 0) {
      throw new WebhookArgumentError("Every signing secret must be a non-empty string.");
    }
  }
  return secrets as readonly string[];
}

/** Checks a body to sign or verify: the raw text or the raw bytes, never a parsed object. */
export function assertRawBody(body: unknown): asserts body is string | Uint8Array {
  if (typeof body !== "string" && !(body instanceof Uint8Array)) {
    throw new WebhookArgumentError(
      "The body must be the raw request body as a string or Uint8Array/Buffer, not a parsed object: " +
        "the signature covers the exact bytes sent (see docs/webhooks.md).",
    );
  }
}

/** Checks a Unix-seconds timestamp given by the caller (spec: X-Service-Timestamp is Unix seconds). */
export function assertUnixSeconds(value: unknown, what: string): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new WebhookArgumentError(`${what} must be a non-negative whole number of Unix seconds.`);
  }
}
