// The node-free entry: the main one signs with node:crypto, which the kernel must not import
// (issue 15; issue 32, item 4).
import { type KnownWebhookEventType, WEBHOOK_EVENT_TYPES } from "@incasso/webhook-signing/events";

/**
 * The event types the spec lists (Events, "Event types"), in the spec's order: the same list the
 * receiving side checks against. The five case types are emitted by a case system; `ping` only by
 * the operator (`incasso webhooks ping`, docs/decisions/webhooks-ping.md).
 *
 * @example
 * WEBHOOK_EVENT_TYPES.includes("case.closed"); // true
 */
export { WEBHOOK_EVENT_TYPES };

/**
 * One of the event types the spec lists.
 *
 * @example
 * const type: WebhookEventType = "payment.received";
 */
export type WebhookEventType = KnownWebhookEventType;

/**
 * The types a case change produces: every listed type except `ping`.
 *
 * @example
 * CASE_WEBHOOK_EVENT_TYPES.includes("ping"); // false
 */
export const CASE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter(
  (t): t is Exclude<WebhookEventType, "ping"> => t !== "ping",
);
