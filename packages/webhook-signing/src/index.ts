export { computeWebhookSignature } from "./compute-webhook-signature.js";
export { constructWebhookEvent } from "./construct-webhook-event.js";
export {
  isWebhookVerificationError,
  WebhookArgumentError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "./errors.js";
export { parseWebhookEvent } from "./parse-webhook-event.js";
export { MAX_WEBHOOK_BODY_BYTES, readWebhookBody } from "./read-webhook-body.js";
export { RecentEventIds, type RecentEventIdsOptions } from "./recent-event-ids.js";
export { type SignWebhookOptions, signWebhook } from "./sign-webhook.js";
export { type VerifiedWebhook, type VerifyWebhookOptions, verifyWebhook } from "./verify-webhook.js";
export {
  isKnownWebhookEventType,
  type KnownWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
} from "./webhook-event.js";
export { webhookEventJsonSchema } from "./webhook-event-json-schema.js";
export {
  WEBHOOK_HEADERS,
  type WebhookHeadersInput,
  type WebhookSignatureHeaders,
} from "./webhook-headers.js";
