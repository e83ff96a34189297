/**
 * The event types the spec lists (Events, "Event types"), in the spec's order. The five case
 * types are emitted by a case system; `ping` only by the operator (`incasso webhooks ping`,
 * docs/decisions/webhooks-ping.md).
 *
 * @example
 * WEBHOOK_EVENT_TYPES.includes("case.closed"); // true
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
 * const type: WebhookEventType = "payment.received";
 */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The types a case change produces: every listed type except `ping`.
 *
 * @example
 * CASE_WEBHOOK_EVENT_TYPES.includes("ping"); // false
 */
export const CASE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter(
  (t): t is Exclude<WebhookEventType, "ping"> => t !== "ping",
);
