export {
  isKnownWebhookEventType,
  type KnownWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
} from "./webhook-event.js";
