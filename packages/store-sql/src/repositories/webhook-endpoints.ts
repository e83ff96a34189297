import type { WebhookEndpointRecord, WebhookEndpointRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";
import { openSecret, type SecretKeyring, webhookSecretContext } from "../secret-keyring.js";

interface Row {
  organisation_id: string;
  url: string;
  secret: string;
  secret_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}

function endpoint(row: Row, keyring: SecretKeyring | undefined): WebhookEndpointRecord {
  return {
    organisationId: row.organisation_id,
    url: row.url,
    secret: openSecret(
      keyring,
      { keyId: row.secret_key_id, value: row.secret },
      webhookSecretContext(row.organisation_id),
    ),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/**
 * Webhook endpoints on SQL, one per organisation; `set` is an upsert so registering again replaces
 * URL and secret and keeps the creation time. With a keyring (INCASSO_SECRET_KEY) the secret is
 * stored encrypted under its current key, with that key's id in `secret_key_id`; without one it
 * is stored as given (key id null). Reading opens either (decision store-secrets-at-rest).
 *
 * @example
 * await webhookEndpointRepository(db, keyring).set({ organisationId, url: "https://client.example/hook", secret, now: new Date() });
 */
export function webhookEndpointRepository(db: Executor, keyring?: SecretKeyring): WebhookEndpointRepository {
  const endpointOf = (row: Row) => endpoint(row, keyring);
  return {
    async set(input) {
      const stored = keyring?.seal(input.secret, webhookSecretContext(input.organisationId)) ?? {
        keyId: null,
        value: input.secret,
      };
      const { rows } = await db.query<Row>(
        `INSERT INTO webhook_endpoints (organisation_id, url, secret, secret_key_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (organisation_id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret,
           secret_key_id = EXCLUDED.secret_key_id, updated_at = EXCLUDED.updated_at
         RETURNING *`,
        [input.organisationId, input.url, stored.value, stored.keyId, ts(input.now)],
      );
      const row = rows[0];
      if (!row) throw new Error("The webhook endpoint upsert returned no row.");
      return endpointOf(row);
    },
    async find(organisationId) {
      const { rows } = await db.query<Row>("SELECT * FROM webhook_endpoints WHERE organisation_id = $1", [
        organisationId,
      ]);
      return rows[0] ? endpointOf(rows[0]) : undefined;
    },
    async list() {
      const { rows } = await db.query<Row>(
        "SELECT * FROM webhook_endpoints ORDER BY created_at, organisation_id",
      );
      return rows.map(endpointOf);
    },
    async remove(organisationId) {
      const { rowCount } = await db.query("DELETE FROM webhook_endpoints WHERE organisation_id = $1", [
        organisationId,
      ]);
      return rowCount > 0;
    },
  };
}
