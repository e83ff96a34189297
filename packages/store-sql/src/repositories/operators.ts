import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

/**
 * An operator as stored: never the credential, only its hash (compared by the caller).
 *
 * @example
 * const r: OperatorRecord = { id: "op_0123456789abcdef", name: "Jan", role: "handler",
 *   credentialHash: "9f86…", createdAt: new Date(), revokedAt: null, lockedUntil: null };
 */
export interface OperatorRecord {
  id: string;
  name: string;
  role: "handler" | "admin";
  credentialHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** Until when logins of this operator are refused after repeated failures; null when not locked. */
  lockedUntil: Date | null;
}

/**
 * How failed logins lock: `maxFailures` within `windowMs` lock the subject for `lockMs`.
 *
 * @example
 * const rule: LoginLockRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
 */
export interface LoginLockRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/**
 * The operators of the console and their failed logins, on SQL (decision operators-credentials).
 *
 * @example
 * const repo = operatorRepository(store.database);
 * await repo.create({ id: "op_0123456789abcdef", name: "Jan", role: "handler", credentialHash, now: new Date() });
 */
export interface OperatorRepository {
  create(input: {
    id: string;
    name: string;
    role: "handler" | "admin";
    credentialHash: string;
    now: Date;
  }): Promise<OperatorRecord>;
  findById(id: string): Promise<OperatorRecord | undefined>;
  /** Every operator, oldest first, with the lock of each (when `now` is before its end). */
  list(now: Date): Promise<OperatorRecord[]>;
  /** Sets `revoked_at` once; the operator afterwards, or undefined when unknown. */
  revoke(id: string, now: Date): Promise<OperatorRecord | undefined>;
  /** The latest end of a lock among `subjects` that is still running at `now`, or null. */
  lockedUntil(subjects: readonly string[], now: Date): Promise<Date | null>;
  /**
   * Counts one failure for each subject in one statement (so concurrent failures are all counted)
   * and returns the latest lock end among them when the count reached the rule, else null.
   */
  recordFailure(subjects: readonly string[], now: Date, rule: LoginLockRule): Promise<Date | null>;
  /** Forgets the failures of the subjects (a successful login). */
  clearFailures(subjects: readonly string[]): Promise<void>;
}

interface Row {
  id: string;
  name: string;
  role: "handler" | "admin";
  credential_hash: string;
  created_at: Date;
  revoked_at: Date | null;
  locked_until: Date | null;
}

const SELECT = `SELECT o.id, o.name, o.role, o.credential_hash, o.created_at, o.revoked_at,
    CASE WHEN f.locked_until > $1 THEN f.locked_until END AS locked_until
  FROM operators o LEFT JOIN operator_login_failures f ON f.subject = 'operator:' || o.id`;

function record(row: Row): OperatorRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    credentialHash: row.credential_hash,
    createdAt: toDate(row.created_at),
    revokedAt: row.revoked_at === null ? null : toDate(row.revoked_at),
    lockedUntil: row.locked_until === null ? null : toDate(row.locked_until),
  };
}

/**
 * Operators on SQL (migration 2).
 *
 * @example
 * const operator = await operatorRepository(store.database).findById("op_0123456789abcdef");
 */
export function operatorRepository(db: Executor): OperatorRepository {
  const byId = async (id: string, now = new Date()) => {
    const { rows } = await db.query<Row>(`${SELECT} WHERE o.id = $2`, [ts(now), id]);
    return rows[0] ? record(rows[0]) : undefined;
  };
  return {
    async create(input) {
      await db.query(
        `INSERT INTO operators (id, name, role, credential_hash, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [input.id, input.name, input.role, input.credentialHash, ts(input.now)],
      );
      const created = await byId(input.id, input.now);
      if (!created) throw new Error(`Operator ${input.id} was not stored.`);
      return created;
    },
    findById: (id) => byId(id),
    async list(now) {
      const { rows } = await db.query<Row>(`${SELECT} ORDER BY o.created_at, o.id`, [ts(now)]);
      return rows.map(record);
    },
    async revoke(id, now) {
      await db.query("UPDATE operators SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL", [
        id,
        ts(now),
      ]);
      return byId(id, now);
    },
    async lockedUntil(subjects, now) {
      if (subjects.length === 0) return null;
      const { rows } = await db.query<{ until: Date | null }>(
        `SELECT max(locked_until) AS until FROM operator_login_failures
          WHERE subject = ANY($1::text[]) AND locked_until > $2`,
        [subjects, ts(now)],
      );
      const until = rows[0]?.until ?? null;
      return until === null ? null : toDate(until);
    },
    async recordFailure(subjects, now, rule) {
      if (subjects.length === 0) return null;
      // A count starts again when its window has passed or its lock has run out; the failure that
      // reaches the rule sets the lock (decision operators-credentials).
      const { rows } = await db.query<{ locked_until: Date | null }>(
        `INSERT INTO operator_login_failures AS f (subject, failures, window_started_at, locked_until)
           SELECT s, 1, $2::timestamptz,
             CASE WHEN 1 >= $3::int THEN $2::timestamptz + $5::int * interval '1 millisecond' END
           FROM unnest($1::text[]) AS s
         ON CONFLICT (subject) DO UPDATE SET
           failures = CASE WHEN f.window_started_at + $4::int * interval '1 millisecond' <= $2::timestamptz
               OR f.locked_until <= $2::timestamptz THEN 1 ELSE f.failures + 1 END,
           window_started_at = CASE WHEN f.window_started_at + $4::int * interval '1 millisecond' <= $2::timestamptz
               OR f.locked_until <= $2::timestamptz THEN $2::timestamptz ELSE f.window_started_at END,
           locked_until = CASE
             WHEN f.locked_until > $2::timestamptz THEN f.locked_until
             WHEN (CASE WHEN f.window_started_at + $4::int * interval '1 millisecond' <= $2::timestamptz
               OR f.locked_until <= $2::timestamptz THEN 1 ELSE f.failures + 1 END) >= $3::int
               THEN $2::timestamptz + $5::int * interval '1 millisecond'
             END
         RETURNING f.locked_until`,
        [subjects, ts(now), rule.maxFailures, rule.windowMs, rule.lockMs],
      );
      const ends = rows.flatMap((r) => (r.locked_until === null ? [] : [toDate(r.locked_until).getTime()]));
      return ends.length === 0 ? null : new Date(Math.max(...ends));
    },
    async clearFailures(subjects) {
      if (subjects.length === 0) return;
      await db.query("DELETE FROM operator_login_failures WHERE subject = ANY($1::text[])", [subjects]);
    },
  };
}
