import type { WebhookEventType } from "./event-types.js";
import type { WebhookEventData } from "./webhook-event-schema.js";

/**
 * Where an event stands. `pending`: waiting for its next attempt. `delivering`: claimed by a
 * dispatcher under a lease. `delivered`: a 2xx came back. `failed`: every attempt of the schedule
 * failed (the operator can redeliver). `no_endpoint`: the organisation had no endpoint when the
 * event was written, so nothing was attempted (redeliverable once one is set).
 *
 * @example
 * const state: WebhookDeliveryState = "failed";
 */
export type WebhookDeliveryState = "pending" | "delivering" | "delivered" | "failed" | "no_endpoint";

/**
 * What a case change writes into the outbox, in the same transaction as the change itself.
 *
 * @example
 * const input: OutboxEventInput = { organisationId: "org_0123456789abcdef", type: "payment.received",
 *   data: { order_id: "ord_0123456789abcdef", case_number: "2026-000123", reference: "INV-42", case_event: "case_payments" } };
 */
export interface OutboxEventInput {
  organisationId: string;
  type: WebhookEventType;
  data: WebhookEventData;
  /** The event id; default a new `evt_` id. */
  id?: string;
  /** The event's `created_at` and first due time; default the current time. */
  now?: Date;
}

/**
 * One event in the outbox with its delivery state.
 *
 * @example
 * if (event.state === "failed") console.log(event.id, event.lastError);
 */
export interface OutboxEvent {
  id: string;
  organisationId: string;
  type: WebhookEventType;
  /** The exact JSON body sent on every attempt (the bytes that are signed). */
  payload: string;
  createdAt: Date;
  state: WebhookDeliveryState;
  /** Attempts made so far, over every round. */
  attempts: number;
  /** `attempts` when the current round began: 0, or the count at the last redelivery. */
  roundStart: number;
  nextAttemptAt: Date | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
}

/**
 * One attempt to deliver an event, as recorded: who sent it, where, with what result, and when the
 * next attempt was scheduled.
 *
 * @example
 * const a: DeliveryAttemptRecord = { eventId: "evt_0123456789abcdef", attempt: 1, owner: "dsp_1", url: "https://client.example/hook",
 *   startedAt: new Date(), finishedAt: new Date(), outcome: "failed", statusCode: 503, durationMs: 12, error: "HTTP 503",
 *   nextAttemptAt: new Date() };
 */
export interface DeliveryAttemptRecord {
  eventId: string;
  /** 1-based and unique per event: one attempt number is sent by one dispatcher only. */
  attempt: number;
  /** The dispatcher that claimed it. */
  owner: string;
  url: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  /** Null while in flight; `lease_expired` when its dispatcher vanished before recording a result. */
  outcome: "delivered" | "failed" | "lease_expired" | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** The next attempt this one scheduled; null on success or when the schedule was exhausted. */
  nextAttemptAt: Date | null;
}

/**
 * A registered webhook endpoint: one per organisation, registered out of band by the operator
 * (spec, Events).
 *
 * @example
 * const e: WebhookEndpointRecord = { organisationId: "org_0123456789abcdef", url: "https://client.example/hook",
 *   secret: "whsec_…", createdAt: new Date(), updatedAt: new Date() };
 */
export interface WebhookEndpointRecord {
  organisationId: string;
  url: string;
  /** The signing secret (spec: `<SIGNING_SECRET>`); needed in clear to compute the HMAC. */
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An attempt handed to a dispatcher by {@link OutboxRepository.claim}.
 *
 * @example
 * for (const { event, attempt, endpoint } of claimed) await send(event.payload, endpoint);
 */
export interface ClaimedDelivery {
  event: OutboxEvent;
  /** The attempt number this dispatcher now owns. */
  attempt: number;
  /** Its place in the current round of the schedule, from 1. */
  attemptInRound: number;
  /** The organisation's endpoint now; undefined when it has none, or when its secret cannot be read. */
  endpoint: WebhookEndpointRecord | undefined;
  /**
   * Why the organisation's endpoint could not be used although it exists: its secret is encrypted
   * under a key the store does not hold (decision store-secrets-at-rest). The attempt fails with
   * this reason and follows the retry schedule, so the other events of the claim still go out.
   */
  endpointError?: string;
}

/**
 * Input of {@link OutboxRepository.claim}.
 *
 * @example
 * const input: ClaimInput = { owner: "dsp_1", now: new Date(), leaseSeconds: 60, limit: 50, maxAttempts: 6 };
 */
export interface ClaimInput {
  /** Who claims: a dispatcher's id. */
  owner: string;
  now: Date;
  /** How long the claim holds; after it another dispatcher may take the event over. */
  leaseSeconds: number;
  limit: number;
  /** Attempts per round (spec, Limits: up to 6); an expired claim at the limit is marked failed. */
  maxAttempts: number;
  /** Claim only this event (ping and redeliver send at once), if it is due. */
  eventId?: string;
}

/**
 * Input of {@link OutboxRepository.finish}.
 *
 * @example
 * await store.outbox.finish({ eventId, attempt: 1, owner, now, outcome: "delivered", statusCode: 204,
 *   durationMs: 9, error: null, url, nextAttemptAt: null });
 */
export interface FinishInput {
  eventId: string;
  attempt: number;
  owner: string;
  now: Date;
  outcome: "delivered" | "failed";
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  url: string | null;
  /** When to try again; null ends the round (delivered, or failed for good). */
  nextAttemptAt: Date | null;
}

/**
 * The transactional outbox of webhook events (architecture: Webhooks). A case system writes an
 * event with {@link OutboxRepository.enqueue} on the transaction's repositories, so the event
 * exists exactly when the change that caused it was committed; dispatchers claim due events with
 * `FOR UPDATE SKIP LOCKED` plus a lease.
 *
 * @example
 * await store.transaction(async (tx) => {
 *   // ... book the payment on the case with tx ...
 *   await tx.outbox.enqueue({ organisationId, type: "payment.received",
 *     data: { order_id, case_number, reference, case_event: "case_payments" } });
 * });
 */
export interface OutboxRepository {
  /**
   * Writes an event. Its body is fixed now (id, `created_at`, data) and sent byte for byte on
   * every attempt. Without an endpoint for the organisation it is stored as `no_endpoint`.
   *
   * @throws WebhookError `invalid_webhook_event` when the type or data break the schema.
   */
  enqueue(input: OutboxEventInput): Promise<OutboxEvent>;
  /**
   * Claims due events (pending and due, or claimed under a lease that ran out) for one dispatcher
   * and records the new attempt of each, in one statement. Two dispatchers never receive the
   * same attempt.
   */
  claim(input: ClaimInput): Promise<ClaimedDelivery[]>;
  /**
   * Records the result of an attempt and moves the event on (delivered, pending again or failed).
   * False when the claim was lost to another dispatcher (lease expired): the attempt's own record
   * is still written.
   */
  finish(input: FinishInput): Promise<boolean>;
  findById(id: string): Promise<OutboxEvent | undefined>;
  /** Newest first; optionally of one organisation or in one state. */
  list(input: {
    organisationId?: string;
    state?: WebhookDeliveryState;
    limit: number;
  }): Promise<OutboxEvent[]>;
  /** Every attempt of an event, oldest first. */
  attempts(eventId: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * Makes an event due now with a fresh round of attempts (the operator's `webhooks redeliver`).
   *
   * @throws WebhookError `webhook_event_not_found`, or `delivery_in_progress` while a live claim holds it.
   */
  redeliver(id: string, now: Date): Promise<OutboxEvent>;
  /**
   * When the longest-waiting event became due: the earliest `next_attempt_at` of the pending
   * events due at `now`, or the lease end of a claim that ran out (its dispatcher vanished);
   * undefined when nothing is due. Readiness reports its age, so a stalled delivery is visible.
   */
  oldestDueAt(now: Date): Promise<Date | undefined>;
  /**
   * How many events are due at `now`: the same events {@link OutboxRepository.oldestDueAt} looks
   * at (pending and due, or claimed under a lease that ran out). The outbox depth of the metrics.
   */
  dueCount(now: Date): Promise<number>;
}

/**
 * Webhook endpoints, one per organisation.
 *
 * @example
 * await store.webhookEndpoints.set({ organisationId, url: "https://client.example/hook", secret, now: new Date() });
 */
export interface WebhookEndpointRepository {
  /** Creates or replaces the organisation's endpoint. */
  set(input: {
    organisationId: string;
    url: string;
    secret: string;
    now: Date;
  }): Promise<WebhookEndpointRecord>;
  find(organisationId: string): Promise<WebhookEndpointRecord | undefined>;
  list(): Promise<WebhookEndpointRecord[]>;
  /** False when the organisation had none. */
  remove(organisationId: string): Promise<boolean>;
}
