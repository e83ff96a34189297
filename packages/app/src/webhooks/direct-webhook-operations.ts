import {
  checkWebhookSecret,
  checkWebhookUrl,
  type DeliveryAttemptRecord,
  generateWebhookSecret,
  type IncassoStore,
  type OutboxEvent,
  requireOrganisation,
  snakeView,
  type WebhookEndpointRecord,
  WebhookError,
  webhookSecretHint,
} from "@incasso/core";
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "./webhook-dispatcher.js";

/**
 * An endpoint as the operator sees it: never the secret, only a hint.
 *
 * @example
 * const e: WebhookEndpointSummary = { organisation: "Acme BV", url: "https://client.example/hook", secret_hint: "whsec_…wxyz",
 *   created_at: "2026-11-21T10:00:00.000Z", updated_at: "2026-11-21T10:00:00.000Z" };
 */
export interface WebhookEndpointSummary {
  organisation: string;
  url: string;
  secret_hint: string;
  created_at: string;
  updated_at: string;
}

/**
 * An event and its delivery state, for `incasso webhooks deliveries`.
 *
 * @example
 * const d: WebhookDeliverySummary = { event_id: "evt_0123456789abcdef", organisation: "Acme BV", type: "ping", state: "delivered",
 *   attempts: 1, created_at: "2026-11-21T10:00:00.000Z", next_attempt_at: null, last_status: 204, last_error: null,
 *   delivered_at: "2026-11-21T10:00:00.100Z", failed_at: null };
 */
export interface WebhookDeliverySummary {
  event_id: string;
  organisation: string;
  type: string;
  state: OutboxEvent["state"];
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  failed_at: string | null;
}

/**
 * One recorded attempt, with the next attempt it scheduled.
 *
 * @example
 * const a: WebhookAttemptSummary = { attempt: 1, owner: "dsp_0a1b2c3d4e5f", url: "https://client.example/hook",
 *   started_at: "2026-11-21T10:00:00.000Z", finished_at: "2026-11-21T10:00:00.020Z", outcome: "failed", status_code: 503,
 *   duration_ms: 20, error: "http_status: HTTP 503", next_attempt_at: "2026-11-21T10:01:00.020Z" };
 */
export interface WebhookAttemptSummary {
  attempt: number;
  owner: string;
  url: string | null;
  started_at: string;
  finished_at: string | null;
  outcome: DeliveryAttemptRecord["outcome"];
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

/**
 * What `webhooks ping` and `webhooks redeliver` report: the event after the attempt made at once,
 * and that attempt (null when a running dispatcher had already taken the event).
 *
 * @example
 * if (sent.attempt?.outcome === "delivered") console.log("delivered", sent.event.event_id);
 */
export interface WebhookSendSummary {
  event: WebhookDeliverySummary;
  attempt: WebhookAttemptSummary | null;
}

/**
 * The operator's webhook commands, the same whether run on the store or through a running
 * server's operator endpoint.
 *
 * @example
 * const { secret } = await operations.setWebhook({ organisation: "Acme BV", url: "https://client.example/hook" });
 */
export interface WebhookOperations {
  /** Registers or replaces the organisation's endpoint; `secret` is returned only when generated here. */
  setWebhook(input: {
    organisation: string;
    url: string;
    secret?: string;
  }): Promise<WebhookEndpointSummary & { secret: string | null; secret_generated: boolean }>;
  listWebhooks(): Promise<WebhookEndpointSummary[]>;
  /** Enqueues a `ping` for the organisation and sends it at once. */
  pingWebhook(input: { organisation: string }): Promise<WebhookSendSummary>;
  /** Newest first; `failed` shows only events whose schedule is exhausted. */
  listDeliveries(input: {
    failed?: boolean;
    organisation?: string;
    limit?: number;
  }): Promise<WebhookDeliverySummary[]>;
  /** Every attempt of one event, with the schedule it followed. */
  listAttempts(input: { event_id: string }): Promise<WebhookAttemptSummary[]>;
  /** Starts a new round of attempts for an event and makes the first at once. */
  redeliverWebhook(input: { event_id: string }): Promise<WebhookSendSummary>;
}

/**
 * How {@link directWebhookOperations} sends at once: the server's own dispatcher, or the settings
 * of a one-off one.
 *
 * @example
 * const options: WebhookOperationsOptions = { allowPrivateTargets: true };
 */
export interface WebhookOperationsOptions extends Omit<Partial<WebhookDispatcherOptions>, "store"> {
  /** A running dispatcher to send with (the server's); otherwise one is made per command. */
  dispatcher?: WebhookDispatcher;
}

/** Largest listing. */
const MAX_LIST = 1000;

function endpointSummary(record: WebhookEndpointRecord, organisation: string): WebhookEndpointSummary {
  return {
    organisation,
    url: record.url,
    secret_hint: webhookSecretHint(record.secret),
    ...snakeView(record, ["createdAt", "updatedAt"]),
  };
}

/**
 * An outbox event as a {@link WebhookDeliverySummary}.
 *
 * @example
 * const summary = deliverySummary(event, "Acme BV");
 */
export function deliverySummary(event: OutboxEvent, organisation: string): WebhookDeliverySummary {
  return {
    event_id: event.id,
    organisation,
    ...snakeView(event, [
      "type",
      "state",
      "attempts",
      "createdAt",
      "nextAttemptAt",
      "lastStatus",
      "lastError",
      "deliveredAt",
      "failedAt",
    ]),
  };
}

function attemptSummary(a: DeliveryAttemptRecord): WebhookAttemptSummary {
  return snakeView(a, [
    "attempt",
    "owner",
    "url",
    "startedAt",
    "finishedAt",
    "outcome",
    "statusCode",
    "durationMs",
    "error",
    "nextAttemptAt",
  ]);
}

/**
 * The webhook operations on an open store. Ping and redeliver send at once with `options.dispatcher`
 * or a dispatcher made for the command (which claims like any other, so a running server or
 * worker never sends the same attempt).
 *
 * @example
 * const ops = directWebhookOperations(store, { allowPrivateTargets: true });
 * await ops.pingWebhook({ organisation: "Acme BV" });
 */
export function directWebhookOperations(
  store: IncassoStore,
  options: WebhookOperationsOptions = {},
): WebhookOperations {
  const names = async () => new Map((await store.organisations.list()).map((o) => [o.id, o.name]));
  const now = () => options.now?.() ?? new Date();

  async function sendNow(eventId: string): Promise<WebhookSendSummary> {
    const { dispatcher: shared, ...settings } = options;
    const dispatcher = shared ?? createWebhookDispatcher({ ...settings, store });
    try {
      const attempt = await dispatcher.deliverNow(eventId);
      const event = await store.outbox.findById(eventId);
      if (!event) throw new WebhookError("webhook_event_not_found", `No event ${eventId}.`);
      const org = (await names()).get(event.organisationId) ?? event.organisationId;
      const recorded = attempt
        ? (await store.outbox.attempts(eventId)).find((a) => a.attempt === attempt.attempt)
        : undefined;
      return { event: deliverySummary(event, org), attempt: recorded ? attemptSummary(recorded) : null };
    } finally {
      if (!shared) await dispatcher.stop();
    }
  }

  return {
    async setWebhook(input) {
      const organisation = await requireOrganisation(store, input.organisation);
      const url = checkWebhookUrl(input.url);
      const generated = input.secret === undefined;
      const secret = generated ? generateWebhookSecret() : checkWebhookSecret(input.secret as string);
      const record = await store.webhookEndpoints.set({
        organisationId: organisation.id,
        url,
        secret,
        now: now(),
      });
      return {
        ...endpointSummary(record, organisation.name),
        secret: generated ? secret : null,
        secret_generated: generated,
      };
    },
    async listWebhooks() {
      const byId = await names();
      return (await store.webhookEndpoints.list()).map((e) =>
        endpointSummary(e, byId.get(e.organisationId) ?? e.organisationId),
      );
    },
    async pingWebhook(input) {
      const organisation = await requireOrganisation(store, input.organisation);
      if ((await store.webhookEndpoints.find(organisation.id)) === undefined) {
        throw new WebhookError(
          "webhook_endpoint_not_found",
          `${organisation.name} has no webhook endpoint; register one with: incasso webhooks set --organisation "${organisation.name}" --url URL`,
        );
      }
      // A ping is about no order or case: every data field is null (docs/decisions/webhooks-ping.md).
      const event = await store.outbox.enqueue({
        organisationId: organisation.id,
        type: "ping",
        data: { order_id: null, case_number: null, reference: null, case_event: null },
        now: now(),
      });
      return sendNow(event.id);
    },
    async listDeliveries(input) {
      const organisationId = input.organisation
        ? (await requireOrganisation(store, input.organisation)).id
        : undefined;
      const limit = Math.min(Math.max(1, input.limit ?? 50), MAX_LIST);
      const events = await store.outbox.list({
        limit,
        ...(organisationId ? { organisationId } : {}),
        ...(input.failed ? { state: "failed" as const } : {}),
      });
      const byId = await names();
      return events.map((e) => deliverySummary(e, byId.get(e.organisationId) ?? e.organisationId));
    },
    async listAttempts(input) {
      if ((await store.outbox.findById(input.event_id)) === undefined) {
        throw new WebhookError("webhook_event_not_found", `No event ${input.event_id}.`);
      }
      return (await store.outbox.attempts(input.event_id)).map(attemptSummary);
    },
    async redeliverWebhook(input) {
      await store.outbox.redeliver(input.event_id, now());
      return sendNow(input.event_id);
    },
  };
}
