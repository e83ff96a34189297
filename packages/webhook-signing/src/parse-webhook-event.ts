import { WebhookVerificationError } from "./errors.js";
import { assertRawBody } from "./internal/arguments.js";
import type { WebhookEvent, WebhookEventData } from "./webhook-event.js";

// RFC 3339 §5.6 date-time, the profile of ISO 8601 used on the wire ("timestamps are ISO 8601
// date-times", spec introduction). Only the shape is checked; the sender owns the value.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATA_FIELDS = ["order_id", "case_number", "reference", "case_event"] as const;

/**
 * Parses a body into a {@link WebhookEvent} and checks its shape against the spec (Events,
 * "Body (WebhookEvent)"). It does **not** check the signature: for a delivery use
 * {@link constructWebhookEvent}. This is for bodies already verified or from a trusted store.
 *
 * Tolerant where the spec asks for it (Versioning 2 and 3): unknown event types and unknown
 * fields pass and unknown fields stay on the object. A `data` field that is absent becomes `null`.
 * Strict where a wrong value would mislead: `id` must start with `evt_`, `object` must be
 * `event`, `type` a non-empty string, `created_at` a date-time, and `data` fields strings or null.
 *
 * @param rawBody - The JSON text or its UTF-8 bytes.
 * @throws {@link WebhookVerificationError} with code `invalid_payload`.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent } from "@incasso/webhook-signing";
 * const event = parseWebhookEvent(
 *   '{"id":"evt_1","object":"event","type":"ping","created_at":"2026-11-21T10:00:00Z","data":{}}',
 * );
 * event.data.order_id; // null
 * ```
 */
export function parseWebhookEvent(rawBody: string | Uint8Array): WebhookEvent {
  assertRawBody(rawBody);
  let value: unknown;
  try {
    // JSON exchanged between systems is UTF-8 (RFC 8259 §8.1); invalid bytes are refused rather
    // than silently replaced with U+FFFD.
    const text =
      typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody);
    value = JSON.parse(text);
  } catch (cause) {
    throw invalid("The body is not valid UTF-8 JSON.", cause);
  }
  if (!isRecord(value)) throw invalid("The body is not a JSON object.");
  if (typeof value.id !== "string" || !value.id.startsWith("evt_"))
    throw invalid("id must be a string starting with evt_.");
  if (value.object !== "event") throw invalid('object must be "event".');
  if (typeof value.type !== "string" || value.type.length === 0)
    throw invalid("type must be a non-empty string.");
  if (typeof value.created_at !== "string" || !DATE_TIME.test(value.created_at)) {
    throw invalid("created_at must be an ISO 8601 date-time.");
  }
  const rawData = value.data ?? {};
  if (!isRecord(rawData)) throw invalid("data must be an object.");
  const data: Record<string, unknown> = { ...rawData };
  for (const field of DATA_FIELDS) {
    const v = data[field] ?? null;
    if (v !== null && typeof v !== "string") throw invalid(`data.${field} must be a string or null.`);
    data[field] = v;
  }
  return { ...value, data: data as unknown as WebhookEventData } as unknown as WebhookEvent;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string, cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError("invalid_payload", message, cause === undefined ? {} : { cause });
}
