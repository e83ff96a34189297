import type { Migration } from "./migrations.js";

/**
 * Webhook endpoints and the transactional outbox (issue 9; docs/webhook-delivery.md). Versions 20
 * and up belong to webhook delivery.
 *
 * - `webhook_events` is the outbox: one row per event with the exact body sent on every attempt,
 *   its delivery state, the lease of the dispatcher holding it, and when it is next due.
 * - `webhook_attempts` records every attempt; its primary key `(event_id, attempt)` makes it
 *   impossible for two dispatchers to record (and so to send) the same attempt.
 * - Version 21: `webhook_endpoints.secret_key_id`, the key a secret is encrypted with.
 *
 * @example
 * const steps = [...MIGRATIONS_BEFORE, ...WEBHOOK_MIGRATIONS];
 */
export const WEBHOOK_MIGRATIONS: readonly Migration[] = [
  {
    version: 20,
    name: "webhook endpoints, outbox and delivery attempts",
    statements: [
      `CREATE TABLE webhook_endpoints (
        organisation_id text PRIMARY KEY REFERENCES organisations (id),
        url text NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        organisation_id text NOT NULL REFERENCES organisations (id),
        type text NOT NULL,
        payload text NOT NULL,
        created_at timestamptz NOT NULL,
        state text NOT NULL
          CHECK (state IN ('pending', 'delivering', 'delivered', 'failed', 'no_endpoint')),
        attempts integer NOT NULL DEFAULT 0,
        round_start integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_owner text,
        lease_expires_at timestamptz,
        last_status integer,
        last_error text,
        delivered_at timestamptz,
        failed_at timestamptz
      )`,
      // The dispatcher's two questions, each answered from a small partial index.
      "CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE state = 'pending'",
      "CREATE INDEX webhook_events_leased ON webhook_events (lease_expires_at) WHERE state = 'delivering'",
      "CREATE INDEX webhook_events_organisation ON webhook_events (organisation_id, created_at)",
      "CREATE INDEX webhook_events_listing ON webhook_events (created_at)",
      `CREATE TABLE webhook_attempts (
        event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        attempt integer NOT NULL CHECK (attempt > 0),
        owner text NOT NULL,
        url text,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        outcome text CHECK (outcome IN ('delivered', 'failed', 'lease_expired')),
        status_code integer,
        duration_ms integer,
        error text,
        next_attempt_at timestamptz,
        PRIMARY KEY (event_id, attempt)
      )`,
    ],
  },
  {
    version: 21,
    name: "webhook secrets: the id of the key each is encrypted with",
    statements: [
      // Null: stored as given (before INCASSO_SECRET_KEY was set); the rotate command encrypts
      // those rows (decision store-secrets-at-rest).
      "ALTER TABLE webhook_endpoints ADD COLUMN secret_key_id text",
    ],
  },
];
