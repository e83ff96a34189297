import { z } from "zod";
import { WebhookError } from "./errors.js";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./event-types.js";

/**
 * The `data` object of an event (spec, Events, "Body (WebhookEvent)"): four fields, each a string
 * or null.
 *
 * @example
 * WebhookEventDataSchema.parse({ order_id: "ord_0123456789abcdef", case_number: "2026-000123", reference: "INV-42", case_event: "case_payments" });
 */
export const WebhookEventDataSchema = z
  .object({
    order_id: z
      .string()
      .regex(/^ord_/)
      .nullable()
      .describe("`ord_…` of the original order; null when the event concerns no order (ping)."),
    case_number: z.string().min(1).nullable().describe("The case number."),
    reference: z.string().nullable().describe("The client's reference of the order."),
    case_event: z
      .string()
      .min(1)
      .nullable()
      .describe("Underlying case-system event name, for example `case_payments`."),
  })
  .meta({ id: "WebhookEventData", description: "What a webhook event is about." });

/**
 * The `data` of an event.
 *
 * @example
 * const data: WebhookEventData = { order_id: null, case_number: null, reference: null, case_event: null };
 */
export type WebhookEventData = z.output<typeof WebhookEventDataSchema>;

/**
 * The body of every webhook delivery (spec, Events, "Body (WebhookEvent)"), for the OpenAPI
 * document's `webhooks` section and for checking what a case system enqueues.
 *
 * @example
 * WebhookEventSchema.parse({
 *   id: "evt_0123456789abcdef", object: "event", type: "ping", created_at: "2026-11-21T10:00:00.000Z",
 *   data: { order_id: null, case_number: null, reference: null, case_event: null },
 * });
 */
export const WebhookEventSchema = z
  .object({
    id: z
      .string()
      .regex(/^evt_[0-9a-f]{16}$/)
      .describe("Unique event id: `evt_` and 16 hex digits; the same on every attempt."),
    object: z.literal("event").describe("Constant `event`."),
    type: z.enum(WEBHOOK_EVENT_TYPES).describe("What happened (spec, Events, Event types)."),
    created_at: z.iso.datetime({ offset: true }).describe("When the event happened (ISO 8601)."),
    data: WebhookEventDataSchema,
  })
  .meta({
    id: "WebhookEvent",
    description:
      "Sent as the JSON body of a POST to the organisation's webhook endpoint, signed in X-Service-Signature.",
  });

/**
 * A webhook event body.
 *
 * @example
 * const event: WebhookEvent = { id: "evt_0123456789abcdef", object: "event", type: "ping",
 *   created_at: "2026-11-21T10:00:00.000Z", data: { order_id: null, case_number: null, reference: null, case_event: null } };
 */
export type WebhookEvent = z.output<typeof WebhookEventSchema>;

/**
 * The event body for an id, a type, a time and its data, checked against
 * {@link WebhookEventSchema}, with the fields in the spec's order.
 *
 * @throws WebhookError `invalid_webhook_event` when a field breaks the schema.
 * @example
 * const event = buildWebhookEvent({ id: newId("evt"), type: "payment.received", createdAt: new Date(),
 *   data: { order_id: "ord_0123456789abcdef", case_number: "2026-000123", reference: "INV-42", case_event: "case_payments" } });
 */
export function buildWebhookEvent(input: {
  id: string;
  type: WebhookEventType;
  createdAt: Date;
  data: WebhookEventData;
}): WebhookEvent {
  const candidate = {
    id: input.id,
    object: "event",
    type: input.type,
    created_at: input.createdAt.toISOString(),
    data: {
      order_id: input.data?.order_id ?? null,
      case_number: input.data?.case_number ?? null,
      reference: input.data?.reference ?? null,
      case_event: input.data?.case_event ?? null,
    },
  };
  const parsed = WebhookEventSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WebhookError(
      "invalid_webhook_event",
      `The webhook event is invalid at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "unknown"}.`,
    );
  }
  // Rebuilt by hand so the key order on the wire is always the spec's, whatever zod returns.
  const e = parsed.data;
  return {
    id: e.id,
    object: e.object,
    type: e.type,
    created_at: e.created_at,
    data: {
      order_id: e.data.order_id,
      case_number: e.data.case_number,
      reference: e.data.reference,
      case_event: e.data.case_event,
    },
  };
}
