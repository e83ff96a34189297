import {
  buildWebhookEvent,
  type ClaimedDelivery,
  CoreError,
  type DeliveryAttemptRecord,
  newId,
  type OutboxEvent,
  type OutboxRepository,
  WebhookError,
  type WebhookEventType,
} from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";
import { isSecretKeyError, openSecret, type SecretKeyring, webhookSecretContext } from "../secret-keyring.js";

interface EventRow {
  id: string;
  organisation_id: string;
  type: string;
  payload: string;
  created_at: Date;
  state: OutboxEvent["state"];
  attempts: number;
  round_start: number;
  next_attempt_at: Date | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  failed_at: Date | null;
}

interface ClaimRow extends EventRow {
  endpoint_url: string | null;
  endpoint_secret: string | null;
  endpoint_secret_key_id: string | null;
  endpoint_created_at: Date | null;
  endpoint_updated_at: Date | null;
}

interface AttemptRow {
  event_id: string;
  attempt: number;
  owner: string;
  url: string | null;
  started_at: Date;
  finished_at: Date | null;
  outcome: DeliveryAttemptRecord["outcome"];
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: Date | null;
}

const maybeDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

function event(row: EventRow): OutboxEvent {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    type: row.type as WebhookEventType,
    payload: row.payload,
    createdAt: toDate(row.created_at),
    state: row.state,
    attempts: Number(row.attempts),
    roundStart: Number(row.round_start),
    nextAttemptAt: maybeDate(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: maybeDate(row.lease_expires_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: maybeDate(row.delivered_at),
    failedAt: maybeDate(row.failed_at),
  };
}

function attempt(row: AttemptRow): DeliveryAttemptRecord {
  return {
    eventId: row.event_id,
    attempt: Number(row.attempt),
    owner: row.owner,
    url: row.url,
    startedAt: toDate(row.started_at),
    finishedAt: maybeDate(row.finished_at),
    outcome: row.outcome,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    nextAttemptAt: maybeDate(row.next_attempt_at),
  };
}

// SQLSTATE 23503: the organisation id names no organisation.
const isForeignKeyViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23503";

// Events are delivered in order of their time and then their id, and an id is random. Events
// enqueued one after another (the events of one change, written in one transaction) must keep
// their order, so within a process a later event never gets the same or an earlier time than the
// one before, even when both fall in one millisecond (the later one is moved on by a millisecond).
let lastEventMs = 0;

function nextEventTime(): Date {
  const now = Date.now();
  lastEventMs = now > lastEventMs ? now : lastEventMs + 1;
  return new Date(lastEventMs);
}

/**
 * The webhook outbox on SQL. Bound to an executor like every repository: on a transaction's
 * executor, `enqueue` commits or rolls back together with the case change that caused the event.
 *
 * Claims are one statement: `SELECT … FOR UPDATE SKIP LOCKED` picks due rows no other dispatcher
 * holds, the same statement leases them and inserts the attempt records, so a row is either
 * claimed with its attempt or not at all (architecture: Webhooks). A claimed event's endpoint
 * secret is opened with `keyring`; one that does not open comes without its endpoint and with
 * `endpointError` naming the key id, and the dispatcher fails that attempt with it (decision
 * store-secrets-at-rest).
 *
 * @example
 * await db.transaction(async (tx) => outboxRepository(tx).enqueue({ organisationId, type: "case.updated", data }));
 */
export function outboxRepository(db: Executor, keyring?: SecretKeyring): OutboxRepository {
  const findById = async (id: string): Promise<OutboxEvent | undefined> => {
    const { rows } = await db.query<EventRow>("SELECT * FROM webhook_events WHERE id = $1", [id]);
    return rows[0] ? event(rows[0]) : undefined;
  };
  return {
    async enqueue(input) {
      const now = input.now ?? nextEventTime();
      const body = buildWebhookEvent({
        id: input.id ?? newId("evt"),
        type: input.type,
        createdAt: now,
        data: input.data,
      });
      try {
        // The endpoint is looked up in the same statement: an organisation without one gets its
        // event recorded as `no_endpoint` instead of six attempts that cannot succeed.
        const { rows } = await db.query<EventRow>(
          `INSERT INTO webhook_events (id, organisation_id, type, payload, created_at, state, next_attempt_at)
           SELECT $1, $2, $3, $4, $5::timestamptz,
             CASE WHEN w.organisation_id IS NULL THEN 'no_endpoint' ELSE 'pending' END,
             CASE WHEN w.organisation_id IS NULL THEN NULL ELSE $5::timestamptz END
           FROM (SELECT 1) AS one LEFT JOIN webhook_endpoints w ON w.organisation_id = $2
           RETURNING *`,
          [body.id, input.organisationId, body.type, JSON.stringify(body), ts(now)],
        );
        const row = rows[0];
        if (!row) throw new Error("The outbox insert returned no row.");
        return event(row);
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new CoreError("organisation_not_found", `No organisation with id ${input.organisationId}.`, {
            cause: error,
          });
        }
        throw error;
      }
    },

    async claim(input) {
      const now = ts(input.now);
      // A claim whose dispatcher vanished at the last attempt of its round cannot be retried: it
      // fails, so the operator sees it and can redeliver (spec, Limits: up to 6 attempts).
      await db.query(
        `WITH gone AS (
           UPDATE webhook_events SET state = 'failed', failed_at = $1, lease_owner = NULL,
             lease_expires_at = NULL, next_attempt_at = NULL,
             last_error = 'the dispatcher stopped before recording the last attempt'
           WHERE state = 'delivering' AND lease_expires_at <= $1 AND attempts - round_start >= $2
           RETURNING id)
         UPDATE webhook_attempts a SET outcome = 'lease_expired', finished_at = $1
         FROM gone WHERE a.event_id = gone.id AND a.finished_at IS NULL`,
        [now, input.maxAttempts],
      );
      const lease = ts(new Date(input.now.getTime() + input.leaseSeconds * 1000));
      const { rows } = await db.query<ClaimRow>(
        `WITH due AS (
           SELECT id FROM webhook_events
           WHERE ((state = 'pending' AND next_attempt_at <= $2)
              OR (state = 'delivering' AND lease_expires_at <= $2 AND attempts - round_start < $5))
             AND ($6::text IS NULL OR id = $6::text)
           ORDER BY next_attempt_at, id
           LIMIT $4
           FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE webhook_events e SET state = 'delivering', attempts = e.attempts + 1,
             lease_owner = $1, lease_expires_at = $3
           FROM due WHERE e.id = due.id
           RETURNING e.*),
         expired AS (
           UPDATE webhook_attempts a SET outcome = 'lease_expired', finished_at = $2
           FROM claimed c WHERE a.event_id = c.id AND a.finished_at IS NULL
           RETURNING a.event_id),
         recorded AS (
           INSERT INTO webhook_attempts (event_id, attempt, owner, started_at)
           SELECT id, attempts, $1, $2 FROM claimed
           RETURNING event_id)
         SELECT c.*, w.url AS endpoint_url, w.secret AS endpoint_secret, w.secret_key_id AS endpoint_secret_key_id,
           w.created_at AS endpoint_created_at, w.updated_at AS endpoint_updated_at
         FROM claimed c LEFT JOIN webhook_endpoints w ON w.organisation_id = c.organisation_id
         ORDER BY c.next_attempt_at, c.id`,
        [input.owner, now, lease, input.limit, input.maxAttempts, input.eventId ?? null],
      );
      return rows.map((row): ClaimedDelivery => {
        const e = event(row);
        const claimed: ClaimedDelivery = {
          event: e,
          attempt: e.attempts,
          attemptInRound: e.attempts - e.roundStart,
          endpoint: undefined,
        };
        if (row.endpoint_url === null || row.endpoint_secret === null) return claimed;
        try {
          claimed.endpoint = {
            organisationId: e.organisationId,
            url: row.endpoint_url,
            secret: openSecret(
              keyring,
              { keyId: row.endpoint_secret_key_id, value: row.endpoint_secret },
              webhookSecretContext(e.organisationId),
            ),
            createdAt: toDate(row.endpoint_created_at),
            updatedAt: toDate(row.endpoint_updated_at),
          };
        } catch (error) {
          // One organisation's unreadable secret fails its own attempt, not the whole claim.
          if (!isSecretKeyError(error)) throw error;
          claimed.endpointError = error.message;
        }
        return claimed;
      });
    },

    async finish(input) {
      const next = input.nextAttemptAt === null ? null : ts(input.nextAttemptAt);
      // One statement, one round trip per attempt. The attempt's own record is ours whatever
      // happened to the claim; a takeover that marked it `lease_expired` is corrected with what
      // really happened. The event moves on only while this dispatcher still holds the claim.
      const { rowCount } = await db.query(
        `WITH recorded AS (
           UPDATE webhook_attempts SET finished_at = $5::timestamptz, outcome = $4, status_code = $7,
             duration_ms = $9, error = $8, url = $10, next_attempt_at = $6::timestamptz
           WHERE event_id = $1 AND attempt = $2 AND owner = $3
             AND (finished_at IS NULL OR outcome = 'lease_expired')
           RETURNING event_id)
         UPDATE webhook_events SET
           state = CASE WHEN $4 = 'delivered' THEN 'delivered'
                        WHEN $6::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = $6::timestamptz, lease_owner = NULL, lease_expires_at = NULL,
           last_status = $7, last_error = $8,
           delivered_at = CASE WHEN $4 = 'delivered' THEN $5::timestamptz ELSE delivered_at END,
           failed_at = CASE WHEN $4 <> 'delivered' AND $6::timestamptz IS NULL THEN $5::timestamptz
                            ELSE NULL END
         WHERE id = $1 AND attempts = $2 AND lease_owner = $3 AND state = 'delivering'`,
        [
          input.eventId,
          input.attempt,
          input.owner,
          input.outcome,
          ts(input.now),
          next,
          input.statusCode,
          input.error,
          input.durationMs,
          input.url,
        ],
      );
      return rowCount === 1;
    },

    findById,

    async list(input) {
      const { rows } = await db.query<EventRow>(
        `SELECT * FROM webhook_events
         WHERE ($1::text IS NULL OR organisation_id = $1::text) AND ($2::text IS NULL OR state = $2::text)
         ORDER BY created_at DESC, id DESC LIMIT $3`,
        [input.organisationId ?? null, input.state ?? null, input.limit],
      );
      return rows.map(event);
    },

    async attempts(eventId) {
      const { rows } = await db.query<AttemptRow>(
        "SELECT * FROM webhook_attempts WHERE event_id = $1 ORDER BY attempt",
        [eventId],
      );
      return rows.map(attempt);
    },

    async oldestDueAt(now) {
      // The same two kinds of row a claim would take (see claim above): pending and due, or
      // delivering under a lease that ran out. One subquery each, so each reads the first entry of
      // its partial index (webhook_events_due, webhook_events_leased); LEAST skips a NULL.
      const { rows } = await db.query<{ due: Date | string | null }>(
        `SELECT LEAST(
           (SELECT min(next_attempt_at) FROM webhook_events WHERE state = 'pending' AND next_attempt_at <= $1),
           (SELECT min(lease_expires_at) FROM webhook_events WHERE state = 'delivering' AND lease_expires_at <= $1)
         ) AS due`,
        [ts(now)],
      );
      return maybeDate(rows[0]?.due ?? null) ?? undefined;
    },

    async dueCount(now) {
      // The rows oldestDueAt looks at, counted on the same two partial indexes.
      const { rows } = await db.query<{ n: number | string }>(
        `SELECT (SELECT count(*) FROM webhook_events WHERE state = 'pending' AND next_attempt_at <= $1)
              + (SELECT count(*) FROM webhook_events WHERE state = 'delivering' AND lease_expires_at <= $1) AS n`,
        [ts(now)],
      );
      return Number(rows[0]?.n ?? 0);
    },

    async redeliver(id, now) {
      // A new round: the attempt numbers go on (they stay unique), the budget starts again.
      const { rows } = await db.query<EventRow>(
        `UPDATE webhook_events SET state = 'pending', next_attempt_at = $2, round_start = attempts,
           lease_owner = NULL, lease_expires_at = NULL, failed_at = NULL
         WHERE id = $1 AND NOT (state = 'delivering' AND lease_expires_at > $2)
         RETURNING *`,
        [id, ts(now)],
      );
      if (rows[0]) return event(rows[0]);
      const existing = await findById(id);
      if (existing === undefined) throw new WebhookError("webhook_event_not_found", `No event ${id}.`);
      throw new WebhookError(
        "delivery_in_progress",
        `Event ${id} is being delivered by ${existing.leaseOwner ?? "a dispatcher"} right now; try again after ${existing.leaseExpiresAt?.toISOString() ?? "its lease"}.`,
      );
    },
  };
}
