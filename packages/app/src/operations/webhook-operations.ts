import { ALLOW_PRIVATE_TARGETS_FLAG, flag, LIMIT_FLAG, ORGANISATION_FLAG } from "../cli/common-flags.js";
import type { FlagValues } from "../cli/flag-spec.js";
import { positiveInt, required, text } from "../cli/flag-values.js";
import { UsageError } from "../cli/usage-error.js";
import { attemptLine, deliveryLine, markUndelivered, sendLine } from "../cli/webhook-text.js";
import type {
  WebhookAttemptSummary,
  WebhookDeliverySummary,
  WebhookEndpointSummary,
  WebhookOperationsOptions,
  WebhookSendSummary,
} from "../webhooks/direct-webhook-operations.js";
import { defineOperation } from "./operator-operation.js";

// Webhook endpoints and deliveries (`incasso webhooks …`). The work is the webhook operations'
// (webhooks/direct-webhook-operations.ts), with this process's sending settings on the direct path and
// the server's on its operator endpoint.

/** How `ping` and `redeliver` send when they open the store themselves. */
const sending = (values: FlagValues): { webhooks: WebhookOperationsOptions } => ({
  // The flag or INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS, read with the other flags.
  webhooks: { allowPrivateTargets: values["allow-private-webhook-targets"] === true },
});

/**
 * `set-webhook`: registers or replaces the organisation's endpoint; `secret` is in the result only
 * when generated here.
 *
 * @example
 * const { secret } = await operations.setWebhook({ organisation: "Acme BV", url: "https://client.example/hook" });
 */
export const setWebhook = defineOperation({
  name: "set-webhook",
  fields: { organisation: "string", url: "string", secret: "string?" },
  run: (
    { webhooks },
    input: { organisation: string; url: string; secret?: string },
  ): Promise<WebhookEndpointSummary & { secret: string | null; secret_generated: boolean }> =>
    webhooks.setWebhook(input),
  cli: {
    group: "webhooks",
    command: "set",
    summary: "register the organisation's endpoint; a new secret is shown once",
    flags: [
      ORGANISATION_FLAG,
      flag("url", "the https:// endpoint", "URL"),
      flag("secret", "the signing secret; default: one is generated", "S"),
    ],
    input(values) {
      const organisation = required(values, "organisation");
      const url = required(values, "url");
      const secret = text(values, "secret");
      return { organisation, url, ...(secret !== undefined ? { secret } : {}) };
    },
    text: (set) =>
      [
        `Webhook endpoint of ${set.organisation}: ${set.url}`,
        ...(set.url.startsWith("http:")
          ? ["  note: plain http sends the events unencrypted; use https outside local development."]
          : []),
        ...(set.secret
          ? ["The signing secret is shown once; give it to the client now:", set.secret]
          : [`Signing with the secret given (${set.secret_hint}).`]),
      ].join("\n"),
  },
});

/**
 * `list-webhooks`: every endpoint, secrets as hints only.
 *
 * @example
 * const endpoints = await operations.listWebhooks();
 */
export const listWebhooks = defineOperation({
  name: "list-webhooks",
  input: () => ({}),
  positional: [],
  run: ({ webhooks }, _input: Record<string, never>): Promise<WebhookEndpointSummary[]> =>
    webhooks.listWebhooks(),
  cli: {
    group: "webhooks",
    command: "list",
    summary: "list endpoints (secrets as hints only)",
    flags: [],
    input: () => ({}),
    text: (list) =>
      list.length === 0
        ? "No webhook endpoints yet. Register one with: incasso webhooks set"
        : list
            .map((e) => `${e.organisation}  ${e.url}  ${e.secret_hint}  updated ${e.updated_at}`)
            .join("\n"),
  },
});

/**
 * `ping-webhook`: enqueues a `ping` for the organisation and sends it at once.
 *
 * @example
 * const sent = await operations.pingWebhook({ organisation: "Acme BV" });
 */
export const pingWebhook = defineOperation({
  name: "ping-webhook",
  fields: { organisation: "string" },
  input: (body) => ({ organisation: body.organisation as string }),
  run: ({ webhooks }, input: { organisation: string }): Promise<WebhookSendSummary> =>
    webhooks.pingWebhook(input),
  cli: {
    group: "webhooks",
    command: "ping",
    summary: "send a ping event now; exit 1 when it was not delivered",
    flags: [ORGANISATION_FLAG, ALLOW_PRIVATE_TARGETS_FLAG],
    direct: sending,
    input: (values) => ({ organisation: required(values, "organisation") }),
    effect: markUndelivered,
    text: (sent) => sendLine("Ping", sent),
  },
});

/**
 * `list-deliveries`: events newest first; `failed` shows only events whose schedule is exhausted.
 *
 * @example
 * const failed = await operations.listDeliveries({ failed: true });
 */
export const listDeliveries = defineOperation({
  name: "list-deliveries",
  fields: { failed: "boolean?", organisation: "string?", limit: "number?" },
  run: (
    { webhooks },
    input: { failed?: boolean; organisation?: string; limit?: number },
  ): Promise<WebhookDeliverySummary[]> => webhooks.listDeliveries(input),
  cli: {
    group: "webhooks",
    command: "deliveries",
    summary: "events and their delivery state; --event shows its attempts",
    flags: [
      flag("failed", "only events that failed for good"),
      ORGANISATION_FLAG,
      LIMIT_FLAG,
      flag("event", "the attempts of this event", "ID"),
    ],
    input(values) {
      const limit = positiveInt(values, "limit", "a positive whole number", 9);
      const organisation = text(values, "organisation");
      return {
        failed: values.failed as boolean,
        ...(organisation !== undefined ? { organisation } : {}),
        ...(limit ? { limit } : {}),
      };
    },
    text: (list, input) =>
      list.length === 0
        ? input.failed
          ? "No failed deliveries."
          : "No webhook events yet."
        : list.map(deliveryLine).join("\n"),
  },
});

/**
 * `list-attempts`: every attempt of one event, with the schedule it followed
 * (`incasso webhooks deliveries --event ID`).
 *
 * @example
 * const attempts = await operations.listAttempts({ event_id: "evt_0123456789abcdef" });
 */
export const listAttempts = defineOperation({
  name: "list-attempts",
  fields: { event_id: "string" },
  input: (body) => ({ event_id: body.event_id as string }),
  run: ({ webhooks }, input: { event_id: string }): Promise<WebhookAttemptSummary[]> =>
    webhooks.listAttempts(input),
  cli: {
    group: "webhooks",
    command: "deliveries",
    summary: "the attempts of one event",
    flags: [],
    when: (values) => values.event !== undefined,
    input: (values) => ({ event_id: text(values, "event") as string }),
    text: (attempts, input) =>
      attempts.length === 0 ? `${input.event_id} has no attempts yet.` : attempts.map(attemptLine).join("\n"),
  },
});

/**
 * `redeliver-webhook`: starts a new round of attempts for an event and makes the first at once.
 *
 * @example
 * const sent = await operations.redeliverWebhook({ event_id: "evt_0123456789abcdef" });
 */
export const redeliverWebhook = defineOperation({
  name: "redeliver-webhook",
  fields: { event_id: "string" },
  input: (body) => ({ event_id: body.event_id as string }),
  run: ({ webhooks }, input: { event_id: string }): Promise<WebhookSendSummary> =>
    webhooks.redeliverWebhook(input),
  cli: {
    group: "webhooks",
    command: "redeliver",
    summary: "send an event again with a fresh round of attempts",
    args: ["<event-id>"],
    flags: [ALLOW_PRIVATE_TARGETS_FLAG],
    direct: sending,
    input(_values, [eventId]) {
      if (eventId === undefined) throw new UsageError("webhooks redeliver takes an event id");
      return { event_id: eventId };
    },
    effect: markUndelivered,
    text: (sent) => sendLine("Redelivery of", sent),
  },
});
