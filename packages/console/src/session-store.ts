import { createHash } from "node:crypto";
import type { ConsoleDatabase } from "./console-queries.js";

/**
 * Where the console keeps which sessions are live (decision console-session-state). The signed
 * cookie says who the operator is and when the session began; this says whether it has been ended.
 * A session is ended by its log-out, by a log-out everywhere of its operator (by the operator or
 * an admin) and by a revocation of the operator in the console; a copy of the cookie is worth
 * nothing afterwards.
 *
 * @example
 * const sessions: ConsoleSessionStore = sqlSessionStore(store.database);
 * await sessions.begin({ id: sessionId(session), operatorId: session.operatorId, createdAt: now, expiresAt });
 */
export interface ConsoleSessionStore {
  /** Records a new session, live until `expiresAt` (its maximum age) unless ended before. */
  begin(session: { id: string; operatorId: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  /** Whether the session is recorded for this operator, not ended and not past its maximum age. */
  isLive(id: string, operatorId: string, now: Date): Promise<boolean>;
  /** Ends one session (the log-out); ending an unknown one does nothing. */
  end(id: string): Promise<void>;
  /** Ends every session of an operator; the number ended. */
  endAll(operatorId: string): Promise<number>;
  /** Forgets the sessions past their maximum age at `now`. */
  sweep(now: Date): Promise<void>;
}

/**
 * The key a session is kept under: SHA-256 of its nonce (base64url). The nonce is in the cookie
 * and nowhere else, so a reader of the table learns no value a cookie could carry (a cookie is
 * signed with the console's secret as well).
 *
 * @example
 * sessionId({ nonce: "q1w2e3r4t5y6u7i8o9p0aa" }); // 43 characters of base64url
 */
export function sessionId(session: { nonce: string }): string {
  return createHash("sha256").update(session.nonce).digest("base64url");
}

/**
 * The sessions in the table `console_sessions` (migration 51) of the store's database, PGlite or
 * PostgreSQL: one indexed read per console request, a write at log-in and log-out.
 *
 * @example
 * const sessions = sqlSessionStore(store.database);
 * if (!(await sessions.isLive(id, operatorId, new Date()))) return loginRedirect();
 */
export function sqlSessionStore(db: ConsoleDatabase): ConsoleSessionStore {
  return {
    async begin(session) {
      await db.query(
        `INSERT INTO console_sessions (id, operator_id, created_at, expires_at)
         VALUES ($1, $2, $3::timestamptz, $4::timestamptz)`,
        [session.id, session.operatorId, session.createdAt.toISOString(), session.expiresAt.toISOString()],
      );
    },
    async isLive(id, operatorId, now) {
      const { rows } = await db.query(
        `SELECT 1 FROM console_sessions
         WHERE id = $1 AND operator_id = $2 AND expires_at > $3::timestamptz`,
        [id, operatorId, now.toISOString()],
      );
      return rows.length > 0;
    },
    async end(id) {
      await db.query("DELETE FROM console_sessions WHERE id = $1", [id]);
    },
    async endAll(operatorId) {
      const { rows } = await db.query<{ id: string }>(
        "DELETE FROM console_sessions WHERE operator_id = $1 RETURNING id",
        [operatorId],
      );
      return rows.length;
    },
    async sweep(now) {
      await db.query("DELETE FROM console_sessions WHERE expires_at <= $1::timestamptz", [now.toISOString()]);
    },
  };
}
