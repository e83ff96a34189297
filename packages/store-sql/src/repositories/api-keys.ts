import type { ApiKeyRecord, ApiKeyRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface Row {
  id: string;
  organisation_id: string;
  organisation_name: string;
  creditor_name: string;
  mode: "live" | "test";
  visibility: "own" | "organisation";
  creditor_management: boolean;
  per_minute: number;
  per_day: number;
  key_hint: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const SELECT = `SELECT k.id, k.organisation_id, o.name AS organisation_name, o.creditor_name, k.mode,
  k.visibility, k.creditor_management, k.per_minute, k.per_day, k.key_hint, k.created_at, k.revoked_at,
  k.last_used_at FROM api_keys k JOIN organisations o ON o.id = k.organisation_id`;

function record(row: Row): ApiKeyRecord {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    creditorName: row.creditor_name,
    mode: row.mode,
    visibility: row.visibility,
    creditorManagement: row.creditor_management,
    perMinute: row.per_minute,
    perDay: row.per_day,
    hint: row.key_hint,
    createdAt: toDate(row.created_at),
    revokedAt: row.revoked_at === null ? null : toDate(row.revoked_at),
    lastUsedAt: row.last_used_at === null ? null : toDate(row.last_used_at),
  };
}

/**
 * API keys on SQL. The key itself never reaches the database, only its SHA-256 hash.
 *
 * @example
 * const key = await apiKeyRepository(db).findByHash(hashApiKey(token));
 */
export function apiKeyRepository(db: Executor): ApiKeyRepository {
  const byId = async (id: string) => {
    const { rows } = await db.query<Row>(`${SELECT} WHERE k.id = $1`, [id]);
    return rows[0] ? record(rows[0]) : undefined;
  };
  return {
    async create(input) {
      await db.query(
        `INSERT INTO api_keys (id, organisation_id, mode, visibility, creditor_management, per_minute,
          per_day, key_hash, key_hint, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          input.id,
          input.organisationId,
          input.mode,
          input.visibility,
          input.creditorManagement,
          input.perMinute,
          input.perDay,
          input.hash,
          input.hint,
          ts(input.now),
        ],
      );
      const created = await byId(input.id);
      if (!created) throw new Error(`API key ${input.id} was not stored.`);
      return created;
    },
    async findByHash(hash) {
      const { rows } = await db.query<Row>(`${SELECT} WHERE k.key_hash = $1`, [hash]);
      return rows[0] ? record(rows[0]) : undefined;
    },
    findById: byId,
    async list(filter = {}) {
      const { rows } =
        filter.organisationId === undefined
          ? await db.query<Row>(`${SELECT} ORDER BY k.created_at, k.id`)
          : await db.query<Row>(`${SELECT} WHERE k.organisation_id = $1 ORDER BY k.created_at, k.id`, [
              filter.organisationId,
            ]);
      return rows.map(record);
    },
    async revoke(id, now) {
      await db.query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL", [
        id,
        ts(now),
      ]);
      return byId(id);
    },
    async markUsed(id, at) {
      // To the minute, and only when the last record is a minute old or more: other processes
      // authenticating the same key write no more often (decision keys-last-used).
      await db.query(
        `UPDATE api_keys SET last_used_at = date_trunc('minute', $2::timestamptz)
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
        [id, ts(at)],
      );
    },
    async count() {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM api_keys");
      return rows[0]?.n ?? 0;
    },
  };
}
