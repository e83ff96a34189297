/**
 * The stable codes a {@link WebhookVerificationError} carries. They describe why a delivery was
 * rejected and never change meaning between versions, so a receiver can log or branch on them.
 *
 * - `missing_header`: `X-Service-Signature` or `X-Service-Timestamp` is absent (spec, Events,
 *   "Headers and verification").
 * - `malformed_header`: a header is present but not what the spec allows (timestamp not Unix
 *   seconds, signature not 64 hex characters, a header sent more than once, a value in a header
 *   record that is neither a string nor an array of strings).
 * - `signature_mismatch`: no configured secret reproduces the signature.
 * - `timestamp_out_of_tolerance`: the timestamp is further from "now" than the tolerance
 *   (300 seconds by default, as the spec's reference verifier).
 * - `invalid_payload`: the signature is valid but the body is not a WebhookEvent
 *   ({@link constructWebhookEvent} only).
 * - `event_type_mismatch`: `X-Service-Event` disagrees with the signed body's `type`
 *   ({@link constructWebhookEvent} only).
 *
 * @example
 * ```ts
 * import type { WebhookVerificationErrorCode } from "@incasso/webhook-signing";
 * const code: WebhookVerificationErrorCode = "signature_mismatch";
 * ```
 */
export type WebhookVerificationErrorCode =
  | "missing_header"
  | "malformed_header"
  | "signature_mismatch"
  | "timestamp_out_of_tolerance"
  | "invalid_payload"
  | "event_type_mismatch";

/**
 * A delivery was rejected. Answer the sender with {@link WebhookVerificationError.status} (400):
 * the service then retries (spec, Events, "Delivery"), which heals a clock or rollout problem and
 * costs nothing for a forged request.
 *
 * Across package boundaries test with {@link isWebhookVerificationError} rather than
 * `instanceof`, which breaks when two copies of the package are installed.
 *
 * @example
 * ```ts
 * import { verifyWebhook, isWebhookVerificationError } from "@incasso/webhook-signing";
 * try {
 *   verifyWebhook(rawBody, headers, secret);
 * } catch (error) {
 *   if (isWebhookVerificationError(error)) console.warn(error.code); // e.g. "signature_mismatch"
 *   else throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  /** Stable machine-readable reason. */
  readonly code: WebhookVerificationErrorCode;
  /** HTTP status a receiver should answer with: always 400 (see docs/decisions/webhook-signing-http-status.md). */
  readonly status = 400;
  /** Lower-case name of the header at fault, when one is. */
  readonly header: string | undefined;

  constructor(
    code: WebhookVerificationErrorCode,
    message: string,
    options?: { header?: string; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.header = options?.header;
  }
}

/**
 * The caller passed something unusable (no secret, an empty secret, a negative tolerance, a
 * timestamp that is not whole Unix seconds). This is a configuration bug on the caller's side,
 * not a bad delivery: a receiver should answer 500, not 400. `code` is always `invalid_argument`.
 *
 * @example
 * ```ts
 * import { signWebhook } from "@incasso/webhook-signing";
 * try {
 *   signWebhook({ body: "{}", secret: "", eventType: "ping" });
 * } catch (error) {
 *   console.log((error as { code: string }).code); // "invalid_argument"
 * }
 * ```
 */
export class WebhookArgumentError extends TypeError {
  override readonly name = "WebhookArgumentError";
  /** Always `invalid_argument`. */
  readonly code = "invalid_argument";
}

/**
 * Whether `error` is a {@link WebhookVerificationError}, judged by `name` and `code` so it also
 * works across duplicated installs and realms (CONTRIBUTING: never rely on `instanceof` across
 * packages).
 *
 * @example
 * ```ts
 * import { isWebhookVerificationError } from "@incasso/webhook-signing";
 * isWebhookVerificationError(new Error("x")); // false
 * ```
 */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "WebhookVerificationError" &&
    typeof (error as { code?: unknown }).code === "string"
  );
}
