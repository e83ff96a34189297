import type { RateLimitRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { ts } from "../internal/sql-errors.js";

/**
 * Rate-limit counters on SQL: one upsert per hit, so instances sharing the database share the count.
 *
 * @example
 * const n = await rateLimitRepository(db).increment("orders:key_1:60", windowStart, windowEnd);
 */
export function rateLimitRepository(db: Executor): RateLimitRepository {
  return {
    async increment(bucket, windowStart, expiresAt) {
      const { rows } = await db.query<{ count: number }>(
        `INSERT INTO rate_limit_counters AS c (bucket, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1
         RETURNING count`,
        [bucket, ts(windowStart), ts(expiresAt)],
      );
      return rows[0]?.count ?? 1;
    },
    async prune(now) {
      const { rowCount } = await db.query("DELETE FROM rate_limit_counters WHERE expires_at <= $1", [
        ts(now),
      ]);
      return rowCount;
    },
  };
}
