import type { RateLimitHit, RateLimitRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { ASYNC_COMMIT } from "../internal/async-commit.js";
import { ts } from "../internal/sql-errors.js";

const UPSERT = `INSERT INTO rate_limit_counters AS c (bucket, window_start, count, expires_at)`;
const ON_CONFLICT = "ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1 RETURNING count";

/**
 * The one statement of {@link RateLimitRepository.incrementAll} for `n` windows: a chain of
 * data-modifying CTEs, each window's upsert running only when the window before it stayed within
 * its limit. Exported for the tests.
 *
 * @example
 * incrementAllSql(2, true); // "WITH s AS (SELECT set_config(...)), w0 AS (INSERT ...), w1 AS (...) SELECT ..."
 */
export function incrementAllSql(n: number, asyncCommit: boolean): string {
  const ctes = [`s AS (${asyncCommit ? ASYNC_COMMIT : "SELECT 1"})`];
  for (let i = 0; i < n; i++) {
    const p = i * 4; // $bucket, $window_start, $expires_at, $limit
    const from = i === 0 ? "FROM s" : `FROM w${i - 1} WHERE w${i - 1}.count <= $${p}`;
    ctes.push(`w${i} AS (${UPSERT} SELECT $${p + 1}, $${p + 2}, 1, $${p + 3} ${from} ${ON_CONFLICT})`);
  }
  const columns = Array.from({ length: n }, (_, i) => `(SELECT count FROM w${i}) AS c${i}`);
  return `WITH ${ctes.join(", ")} SELECT ${columns.join(", ")}`;
}

/**
 * Rate-limit counters on SQL: one upsert per hit (one statement for several windows), so instances
 * sharing the database share the count. On the database itself each statement is its own
 * transaction and commits without waiting for the WAL flush; inside a caller's transaction (an
 * executor without `transaction`) the setting would reach the caller's other writes, so there it
 * is left alone.
 *
 * @example
 * const n = await rateLimitRepository(db).increment("orders:key_1:60", windowStart, windowEnd);
 */
export function rateLimitRepository(db: Executor): RateLimitRepository {
  const asyncCommit = "transaction" in db;
  const single = incrementAllSql(1, asyncCommit);
  return {
    async increment(bucket, windowStart, expiresAt) {
      const { rows } = await db.query<{ c0: number | null }>(single, [
        bucket,
        ts(windowStart),
        ts(expiresAt),
      ]);
      return rows[0]?.c0 ?? 1;
    },
    async incrementAll(hits: readonly RateLimitHit[]) {
      if (hits.length === 0) return [];
      const params: unknown[] = [];
      hits.forEach((h, i) => {
        params.push(h.bucket, ts(h.windowStart), ts(h.expiresAt));
        // The limit of this window gates the next one; the last window's limit gates nothing.
        if (i < hits.length - 1) params.push(h.limit);
      });
      const { rows } = await db.query<Record<string, number | null>>(
        incrementAllSql(hits.length, asyncCommit),
        params,
      );
      const row = rows[0] ?? {};
      const counts: number[] = [];
      for (let i = 0; i < hits.length; i++) {
        const count = row[`c${i}`];
        if (count === null || count === undefined) break;
        counts.push(count);
      }
      return counts;
    },
    async prune(now) {
      const { rowCount } = await db.query("DELETE FROM rate_limit_counters WHERE expires_at <= $1", [
        ts(now),
      ]);
      return rowCount;
    },
  };
}
