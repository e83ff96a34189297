import { WebhookArgumentError } from "./errors.js";
import { assertRawBody, assertUnixSeconds } from "./internal/arguments.js";
import { hmacSha256 } from "./internal/hmac.js";

/**
 * The value of X-Service-Signature: lower-case hex HMAC-SHA256 of `timestamp + "." + body`,
 * keyed with the signing secret (spec, Events, "Headers and verification").
 *
 * `body` must be exactly what goes on the wire. A string is signed as its UTF-8 bytes.
 *
 * @param timestamp - Unix seconds, the same value sent in X-Service-Timestamp.
 * @param body - The raw body (string or bytes).
 * @param secret - The signing secret, used as its UTF-8 bytes.
 * @returns 64 lower-case hex characters.
 * @throws {@link WebhookArgumentError} (`invalid_argument`) on an empty secret, a non-integer
 *   timestamp or a body that is not a string or bytes.
 *
 * @example
 * ```ts
 * import { computeWebhookSignature } from "@incasso/webhook-signing";
 * computeWebhookSignature(1763731200, '{"id":"evt_1"}', "my-secret"); // 64 hex characters
 * ```
 */
export function computeWebhookSignature(
  timestamp: number,
  body: string | Uint8Array,
  secret: string,
): string {
  assertUnixSeconds(timestamp, "timestamp");
  assertRawBody(body);
  if (typeof secret !== "string" || secret.length === 0) {
    throw new WebhookArgumentError("The signing secret must be a non-empty string.");
  }
  return hmacSha256(secret, String(timestamp), body).toString("hex");
}
