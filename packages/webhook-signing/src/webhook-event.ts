/**
 * The event types the spec lists (Events, "Event types"), in the spec's order.
 *
 * @example
 * ```ts
 * import { WEBHOOK_EVENT_TYPES } from "@incasso/webhook-signing";
 * WEBHOOK_EVENT_TYPES.includes("case.closed"); // true
 * ```
 */
export const WEBHOOK_EVENT_TYPES = [
  "payment.received",
  "correspondence.sent",
  "invoice.updated",
  "case.updated",
  "case.closed",
  "ping",
] as const;

/**
 * One of the event types the spec lists.
 *
 * @example
 * ```ts
 * import type { KnownWebhookEventType } from "@incasso/webhook-signing";
 * const type: KnownWebhookEventType = "payment.received";
 * ```
 */
export type KnownWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An event type: a known one, or any other string. New types may appear within v1 (spec,
 * Versioning 2), so receivers must accept and ignore what they do not know. The `string & {}`
 * keeps editor completion for the known names.
 *
 * @example
 * ```ts
 * import type { WebhookEventType } from "@incasso/webhook-signing";
 * const known: WebhookEventType = "case.updated";
 * const future: WebhookEventType = "case.reopened";
 * ```
 */
export type WebhookEventType = KnownWebhookEventType | (string & {});

/**
 * The `data` object of an event (spec, Events, "Body (WebhookEvent)"). A field absent from the
 * body is given as `null` by {@link parseWebhookEvent}.
 *
 * @example
 * ```ts
 * import type { WebhookEventData } from "@incasso/webhook-signing";
 * const data: WebhookEventData = {
 *   order_id: "ord_0123456789abcdef", case_number: "2026-0001", reference: "INV-42", case_event: "case_payments",
 * };
 * ```
 */
export interface WebhookEventData {
  /** `ord_…` of the original order. */
  order_id: string | null;
  /** The case number. */
  case_number: string | null;
  /** The client's own reference. */
  reference: string | null;
  /** Underlying case-system event name, for example `case_payments`. */
  case_event: string | null;
}

/**
 * The body of a delivery (spec, Events, "Body (WebhookEvent)"), snake_case as on the wire.
 * Fields the spec does not list are kept on the object at run time but are not typed: clients
 * must tolerate unknown fields (spec, Versioning 3).
 *
 * @example
 * ```ts
 * import type { WebhookEvent } from "@incasso/webhook-signing";
 * function handle(event: WebhookEvent) {
 *   if (event.type === "payment.received") console.log("paid on", event.data.case_number);
 * }
 * ```
 */
export interface WebhookEvent {
  /** Unique event id with the `evt_` prefix; use it to drop duplicate deliveries. */
  id: string;
  /** Constant `event`. */
  object: "event";
  /** The event type. */
  type: WebhookEventType;
  /** ISO 8601 date-time at which the event happened. */
  created_at: string;
  /** What the event is about. */
  data: WebhookEventData;
}

/**
 * Whether `type` is one of the types the spec lists; narrows it to {@link KnownWebhookEventType}.
 *
 * @example
 * ```ts
 * import { isKnownWebhookEventType } from "@incasso/webhook-signing";
 * isKnownWebhookEventType("case.closed"); // true
 * isKnownWebhookEventType("case.reopened"); // false
 * ```
 */
export function isKnownWebhookEventType(type: string): type is KnownWebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}
