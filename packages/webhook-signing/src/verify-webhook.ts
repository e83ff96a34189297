import { timingSafeEqual } from "node:crypto";
import { WebhookArgumentError, WebhookVerificationError } from "./errors.js";
import { assertRawBody, assertSecrets } from "./internal/arguments.js";
import { hmacSha256 } from "./internal/hmac.js";
import { readDeliveryHeaders } from "./internal/read-headers.js";
import { parseTimestampHeader } from "./internal/timestamp.js";
import type { WebhookHeadersInput } from "./webhook-headers.js";

/**
 * Options of {@link verifyWebhook}.
 *
 * @example
 * ```ts
 * import type { VerifyWebhookOptions } from "@incasso/webhook-signing";
 * const options: VerifyWebhookOptions = { toleranceSeconds: 300, now: new Date() };
 * ```
 */
export interface VerifyWebhookOptions {
  /**
   * Largest accepted distance, in seconds, between X-Service-Timestamp and `now`, in either
   * direction. Default 300, as the spec's reference verifier. `Infinity` switches the check off
   * (only for replaying recorded deliveries in tests: it removes the replay protection).
   */
  toleranceSeconds?: number;
  /** The receiver's current time: a `Date`, or Unix **seconds**. Default: the system clock. */
  now?: Date | number;
}

/**
 * What {@link verifyWebhook} learned from an authentic delivery.
 *
 * @example
 * ```ts
 * import type { VerifiedWebhook } from "@incasso/webhook-signing";
 * const result: VerifiedWebhook = { timestamp: 1763731200, eventType: "case.updated", secretIndex: 0 };
 * ```
 */
export interface VerifiedWebhook {
  /** X-Service-Timestamp as a number of Unix seconds. */
  timestamp: number;
  /** X-Service-Event as sent, or `undefined` when absent. Not covered by the signature. */
  eventType: string | undefined;
  /** Index into the secrets passed of the one that matched (0 for a single secret); see rotation in docs/webhooks.md. */
  secretIndex: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const SIGNATURE_BYTES = 32; // SHA-256 output (FIPS 180-4), 64 hex characters on the wire

/**
 * Receiver side: checks that a delivery was signed with one of `secret` and is recent (spec,
 * Events, "Headers and verification": recompute the HMAC, compare timing-safe, reject a
 * mismatch and a timestamp more than 300 seconds away).
 *
 * Pass the body exactly as received, before any JSON parsing: a parsed and re-serialised body
 * differs in whitespace, key order or escapes and fails with `signature_mismatch`.
 *
 * The signature is checked before the timestamp, so `timestamp_out_of_tolerance` always means an
 * authentic but stale (or clock-skewed) delivery, never a forgery.
 *
 * @param rawBody - The raw request body: the exact text or bytes received.
 * @param headers - The request headers: a web `Headers` or a record such as Node's `req.headers`.
 * @param secret - The signing secret, or several during a rotation (any one may match).
 * @param options - Tolerance and clock, see {@link VerifyWebhookOptions}.
 * @returns The timestamp, the event header and which secret matched.
 * @throws {@link WebhookVerificationError} with `code` `missing_header`, `malformed_header`,
 *   `signature_mismatch` or `timestamp_out_of_tolerance` when the delivery must be rejected (400).
 * @throws {@link WebhookArgumentError} (`invalid_argument`) when the caller's configuration is
 *   unusable (500).
 *
 * @example
 * ```ts
 * import { verifyWebhook } from "@incasso/webhook-signing";
 * // in a fetch handler
 * const rawBody = new Uint8Array(await request.arrayBuffer());
 * verifyWebhook(rawBody, request.headers, [process.env.NEW_SECRET!, process.env.OLD_SECRET!]);
 * ```
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeadersInput,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  assertRawBody(rawBody);
  const secrets = assertSecrets(secret);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== "number" || Number.isNaN(tolerance) || tolerance < 0) {
    throw new WebhookArgumentError("toleranceSeconds must be a number >= 0.");
  }
  const nowSeconds = toUnixSeconds(options.now);
  if (headers === null || typeof headers !== "object") {
    throw new WebhookArgumentError("headers must be a Headers object or a record of header values.");
  }

  const found = readDeliveryHeaders(headers);
  if (found.signature === undefined) throw missing("x-service-signature");
  if (found.timestamp === undefined) throw missing("x-service-timestamp");

  // Surrounding whitespace is not part of a field value (RFC 9110 §5.5); web Headers already
  // strip it, a hand-built record may not.
  const timestampText = found.timestamp.trim();
  const timestamp = parseTimestampHeader(timestampText);
  const received = decodeSignature(found.signature.trim());

  let secretIndex = -1;
  for (let i = 0; i < secrets.length; i++) {
    // timingSafeEqual on two 32-byte buffers: the time taken does not depend on how many leading
    // bytes match, so the signature cannot be guessed byte by byte (spec: "compare timing-safe").
    if (timingSafeEqual(hmacSha256(secrets[i] as string, timestampText, rawBody), received)) {
      secretIndex = i;
      break;
    }
  }
  if (secretIndex === -1) {
    throw new WebhookVerificationError(
      "signature_mismatch",
      "X-Service-Signature does not match the body and timestamp for any configured secret. " +
        "Verify the raw body as received, not a re-serialised one.",
      { header: "x-service-signature" },
    );
  }

  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `X-Service-Timestamp ${timestamp} is more than ${tolerance} seconds away from now (${nowSeconds}).`,
      { header: "x-service-timestamp" },
    );
  }

  const eventType = found.event?.trim();
  return { timestamp, eventType: eventType === "" ? undefined : eventType, secretIndex };
}

function decodeSignature(text: string): Buffer {
  // Buffer.from(…, "hex") stops at the first non-hex pair, so 64 characters decoding to exactly
  // 32 bytes proves the header is 64 hex digits (either case) without a regular expression.
  const bytes = text.length === SIGNATURE_BYTES * 2 ? Buffer.from(text, "hex") : undefined;
  if (bytes === undefined || bytes.length !== SIGNATURE_BYTES) {
    throw new WebhookVerificationError(
      "malformed_header",
      "Header x-service-signature is not a hex HMAC-SHA256 (64 hex characters).",
      { header: "x-service-signature" },
    );
  }
  return bytes;
}

function toUnixSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  const ms = now instanceof Date ? now.getTime() : typeof now === "number" ? now * 1000 : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new WebhookArgumentError("now must be a valid Date or a finite number of Unix seconds.");
  }
  return Math.floor(ms / 1000);
}

function missing(header: string): WebhookVerificationError {
  return new WebhookVerificationError("missing_header", `Header ${header} is missing.`, { header });
}
