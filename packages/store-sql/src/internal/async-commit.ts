/**
 * A CTE body that makes the statement's own transaction commit without waiting for the WAL flush
 * (PostgreSQL `synchronous_commit = off`, transaction-local). `set_config(..., true)` lasts to the
 * end of the transaction, which for a statement sent on its own is that statement; PostgreSQL reads
 * the setting at commit. Only for statements sent on the database itself, never inside a caller's
 * transaction, where it would make the caller's other writes non-durable too. Where it is used and
 * why: docs/decisions/storage-rate-limit-counters.md and storage-idempotency-round-trips.md.
 *
 * @example
 * `WITH s AS (${ASYNC_COMMIT}) UPDATE t SET n = n + 1 FROM s WHERE id = $1`
 */
export const ASYNC_COMMIT = "SELECT set_config('synchronous_commit', 'off', true)";
