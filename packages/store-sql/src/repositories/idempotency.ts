import type { IdempotencyRepository, StoredResponse } from "@incasso/core";
import type { Executor } from "../database.js";
import { ASYNC_COMMIT } from "../internal/async-commit.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface Row {
  fingerprint: string;
  state: "in_progress" | "completed";
  lease_expires_at: Date | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/**
 * Idempotency-Key records on SQL. A claim is one INSERT … ON CONFLICT DO UPDATE … WHERE, so of two
 * concurrent requests with one key exactly one wins, on PGlite and on PostgreSQL alike.
 *
 * @example
 * const claim = await idempotencyRepository(db).claim({ scope, key, fingerprint, token, now, leaseSeconds: 30, retentionSeconds: 86_400 });
 */
export function idempotencyRepository(db: Executor): IdempotencyRepository {
  // The claim and the completion commit without waiting for the WAL flush when sent on the
  // database itself (decision storage-idempotency-round-trips): the WAL is written in order, so the
  // request's own durable writes flush the claim before them, and a completion lost in a database
  // crash leaves the state a failed completion already leaves (the lease runs out, a retry takes
  // over and the derived order id finds the order). Inside a caller's transaction it is left out.
  const asyncCommit = "transaction" in db;
  const withCommit = asyncCommit ? `WITH s AS (${ASYNC_COMMIT}) ` : "";
  const fromCommit = asyncCommit ? "FROM s" : "";
  return {
    async claim(input) {
      const now = input.now.getTime();
      const lease = new Date(now + input.leaseSeconds * 1000);
      const expires = new Date(now + input.retentionSeconds * 1000);
      for (let attempt = 0; attempt < 3; attempt++) {
        // Taken over only when the old record is past its retention, or still in progress with its
        // lease run out (its request crashed, or it was released after a 5xx) and the same content:
        // a key is never wedged longer than one lease for a retry of its request, and never changes
        // content within its retention (spec POST /orders rule 3: same key, other content → 409).
        const claimed = await db.query<{ token: string }>(
          `${withCommit}INSERT INTO idempotency_keys AS i (scope, key, fingerprint, state, token,
             lease_expires_at, created_at, expires_at)
           SELECT $1, $2, $3, 'in_progress', $4, $5::timestamptz, $6::timestamptz, $7::timestamptz ${fromCommit}
           ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
             state = 'in_progress', token = EXCLUDED.token, lease_expires_at = EXCLUDED.lease_expires_at,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
             response_status = NULL, response_headers = NULL, response_body = NULL
           WHERE i.expires_at <= EXCLUDED.created_at
              OR (i.state = 'in_progress' AND i.lease_expires_at <= EXCLUDED.created_at
                  AND i.fingerprint = EXCLUDED.fingerprint)
           RETURNING token`,
          [input.scope, input.key, input.fingerprint, input.token, ts(lease), ts(input.now), ts(expires)],
        );
        if (claimed.rows[0]?.token === input.token) return { outcome: "claimed", token: input.token };
        const { rows } = await db.query<Row>(
          `SELECT fingerprint, state, lease_expires_at, response_status, response_headers, response_body
           FROM idempotency_keys WHERE scope = $1 AND key = $2`,
          [input.scope, input.key],
        );
        const row = rows[0];
        if (!row) continue; // pruned or released in between: claim again
        if (row.state === "completed") {
          const response: StoredResponse = {
            status: row.response_status ?? 500,
            headers: row.response_headers ?? {},
            body: row.response_body ?? "",
          };
          return { outcome: "completed", fingerprint: row.fingerprint, response };
        }
        return {
          outcome: "in_progress",
          fingerprint: row.fingerprint,
          leaseExpiresAt: toDate(row.lease_expires_at ?? input.now),
        };
      }
      throw new Error(`Could not claim idempotency key ${input.key}: it changed hands repeatedly.`);
    },
    async complete(input) {
      const { rowCount } = await db.query(
        `${withCommit}UPDATE idempotency_keys SET state = 'completed', lease_expires_at = NULL,
           response_status = $4, response_headers = $5::jsonb, response_body = $6 ${fromCommit}
         WHERE scope = $1 AND key = $2 AND token = $3 AND state = 'in_progress'`,
        [
          input.scope,
          input.key,
          input.token,
          input.response.status,
          JSON.stringify(input.response.headers),
          input.response.body,
        ],
      );
      return rowCount === 1;
    },
    async renew(input) {
      const { rowCount } = await db.query(
        `UPDATE idempotency_keys SET lease_expires_at = $4
         WHERE scope = $1 AND key = $2 AND token = $3 AND state = 'in_progress'`,
        [input.scope, input.key, input.token, ts(input.leaseExpiresAt)],
      );
      return rowCount === 1;
    },
    async release(input) {
      // The lease ends at once (at the claim's own time, which lies before any later claim), and
      // the record keeps its content: a retry of the same request takes the key over, other
      // content under the key is a conflict.
      await db.query(
        `UPDATE idempotency_keys SET lease_expires_at = created_at
         WHERE scope = $1 AND key = $2 AND token = $3 AND state = 'in_progress'`,
        [input.scope, input.key, input.token],
      );
    },
    async prune(now) {
      const { rowCount } = await db.query("DELETE FROM idempotency_keys WHERE expires_at <= $1", [ts(now)]);
      return rowCount;
    },
  };
}
