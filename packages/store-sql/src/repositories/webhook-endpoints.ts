import type { WebhookEndpointRecord, WebhookEndpointRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface Row {
  organisation_id: string;
  url: string;
  secret: string;
  created_at: Date;
  updated_at: Date;
}

function endpoint(row: Row): WebhookEndpointRecord {
  return {
    organisationId: row.organisation_id,
    url: row.url,
    secret: row.secret,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/**
 * Webhook endpoints on SQL, one per organisation; `set` is an upsert so registering again replaces
 * URL and secret and keeps the creation time.
 *
 * @example
 * await webhookEndpointRepository(db).set({ organisationId, url: "https://client.example/hook", secret, now: new Date() });
 */
export function webhookEndpointRepository(db: Executor): WebhookEndpointRepository {
  return {
    async set(input) {
      const { rows } = await db.query<Row>(
        `INSERT INTO webhook_endpoints (organisation_id, url, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (organisation_id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret,
           updated_at = EXCLUDED.updated_at
         RETURNING *`,
        [input.organisationId, input.url, input.secret, ts(input.now)],
      );
      const row = rows[0];
      if (!row) throw new Error("The webhook endpoint upsert returned no row.");
      return endpoint(row);
    },
    async find(organisationId) {
      const { rows } = await db.query<Row>("SELECT * FROM webhook_endpoints WHERE organisation_id = $1", [
        organisationId,
      ]);
      return rows[0] ? endpoint(rows[0]) : undefined;
    },
    async list() {
      const { rows } = await db.query<Row>(
        "SELECT * FROM webhook_endpoints ORDER BY created_at, organisation_id",
      );
      return rows.map(endpoint);
    },
    async remove(organisationId) {
      const { rowCount } = await db.query("DELETE FROM webhook_endpoints WHERE organisation_id = $1", [
        organisationId,
      ]);
      return rowCount > 0;
    },
  };
}
