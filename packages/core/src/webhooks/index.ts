export { isWebhookError, WEBHOOK_ERROR_CODES, WebhookError, type WebhookErrorCode } from "./errors.js";
export { CASE_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types.js";
export type {
  ClaimedDelivery,
  ClaimInput,
  DeliveryAttemptRecord,
  FinishInput,
  OutboxEvent,
  OutboxEventInput,
  OutboxRepository,
  WebhookDeliveryState,
  WebhookEndpointRecord,
  WebhookEndpointRepository,
} from "./outbox-port.js";
export {
  checkWebhookSecret,
  checkWebhookUrl,
  generateWebhookSecret,
  MAX_WEBHOOK_URL_LENGTH,
  webhookSecretHint,
} from "./webhook-endpoint-settings.js";
export {
  buildWebhookEvent,
  type WebhookEvent,
  type WebhookEventData,
  WebhookEventDataSchema,
  WebhookEventSchema,
} from "./webhook-event-schema.js";
