import { WEBHOOK_EVENT_TYPES } from "./webhook-event.js";

const nullableString = (description: string) => ({ type: ["string", "null"], description }) as const;

/**
 * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of the delivery body, WebhookEvent (spec,
 * Events, "Body (WebhookEvent)"). Plain data, so this package stays free of dependencies; the
 * server can place it under `components.schemas.WebhookEvent` and reference it from the
 * document's top-level `webhooks`. It describes what the service sends: every field of the
 * spec's table present (the `data` fields as string or null). Unknown fields and event types are
 * allowed (spec, Versioning 2 and 3); the known types are listed in `examples`. The parser is more
 * lenient on receipt: it also accepts absent `data` fields, as null.
 *
 * @example
 * ```ts
 * import { webhookEventJsonSchema } from "@incasso/webhook-signing";
 * const openapi = { openapi: "3.1.0", components: { schemas: { WebhookEvent: webhookEventJsonSchema } } };
 * ```
 */
export const webhookEventJsonSchema = {
  title: "WebhookEvent",
  description:
    "Body of a webhook delivery. Signed with X-Service-Signature: hex HMAC-SHA256 of timestamp + '.' + raw body.",
  type: "object",
  required: ["id", "object", "type", "created_at", "data"],
  properties: {
    id: { type: "string", pattern: "^evt_", description: "Unique event id, `evt_` prefix." },
    object: { type: "string", const: "event", description: "Constant `event`." },
    type: {
      type: "string",
      minLength: 1,
      examples: [...WEBHOOK_EVENT_TYPES],
      description: `Event type: ${WEBHOOK_EVENT_TYPES.join(", ")}; receivers must tolerate other values.`,
    },
    created_at: { type: "string", format: "date-time", description: "When the event happened." },
    data: {
      type: "object",
      required: ["order_id", "case_number", "reference", "case_event"],
      properties: {
        order_id: nullableString("`ord_...` of the original order."),
        case_number: nullableString("Case number."),
        reference: nullableString("Client's reference."),
        case_event: nullableString("Underlying case-system event name, for example `case_payments`."),
      },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
} as const;
