import { computeWebhookSignature } from "./compute-webhook-signature.js";
import { WebhookArgumentError } from "./errors.js";
import { assertRawBody, assertUnixSeconds } from "./internal/arguments.js";
import type { WebhookSignatureHeaders } from "./webhook-headers.js";

/**
 * What {@link signWebhook} needs.
 *
 * @example
 * ```ts
 * import type { SignWebhookOptions } from "@incasso/webhook-signing";
 * const options: SignWebhookOptions = { body: '{"type":"ping"}', secret: "s3cret", timestamp: 1763731200 };
 * ```
 */
export interface SignWebhookOptions {
  /** The exact body that will be sent: the serialised event as a string, or its bytes. */
  body: string | Uint8Array;
  /** The endpoint's signing secret (spec: `<SIGNING_SECRET>`), used as its UTF-8 bytes. */
  secret: string;
  /** Unix seconds to sign with; defaults to the current time, rounded down. */
  timestamp?: number;
  /**
   * The X-Service-Event value. When omitted it is read from the body's JSON `type` field, so
   * header and signed body cannot disagree.
   */
  eventType?: string;
}

// Header values must not carry control characters or line breaks (RFC 9110 §5.5); event types
// in the spec are dotted ASCII words, so visible ASCII is the safe set.
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/**
 * Sender side: the three delivery headers for a body, a time and a secret (spec, Events,
 * "Headers and verification"). Send the body byte for byte as passed here: any re-serialisation
 * after signing breaks the signature.
 *
 * @returns `X-Service-Signature`, `X-Service-Timestamp` and `X-Service-Event`.
 * @throws {@link WebhookArgumentError} (`invalid_argument`) on an empty secret, a non-integer
 *   timestamp, a missing event type or a body that is not a string or bytes.
 *
 * @example
 * ```ts
 * import { signWebhook } from "@incasso/webhook-signing";
 * const body = JSON.stringify({
 *   id: "evt_1", object: "event", type: "case.updated", created_at: "2026-11-21T10:00:00Z",
 *   data: { order_id: "ord_0123456789abcdef", case_number: "2026-0001", reference: null, case_event: null },
 * });
 * const headers = signWebhook({ body, secret: process.env.SIGNING_SECRET! });
 * await fetch("https://client.example/webhooks", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", ...headers },
 *   body,
 * });
 * ```
 */
export function signWebhook(options: SignWebhookOptions): WebhookSignatureHeaders {
  const { body, secret } = options;
  assertRawBody(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  assertUnixSeconds(timestamp, "timestamp");
  const eventType = options.eventType ?? typeFromBody(body);
  if (typeof eventType !== "string" || !HEADER_TOKEN.test(eventType)) {
    throw new WebhookArgumentError(
      "The event type must be a non-empty string of visible ASCII characters (pass eventType or a body with a string `type`).",
    );
  }
  return {
    "X-Service-Signature": computeWebhookSignature(timestamp, body, secret),
    "X-Service-Timestamp": String(timestamp),
    "X-Service-Event": eventType,
  };
}

function typeFromBody(body: string | Uint8Array): unknown {
  try {
    const text = typeof body === "string" ? body : new TextDecoder("utf-8", { fatal: true }).decode(body);
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}
