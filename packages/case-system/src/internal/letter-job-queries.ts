import type { Executor } from "@incasso/store-sql";

// The SQL of the letter jobs (migration 31 of @incasso/store-sql; decision
// case-system-wik-letter-jobs). A job is pending (due at `due_at`), running (leased until `due_at`)
// or failed; a made letter deletes its job in the letter's own transaction.

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const maybeDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

/** A letter job as stored. */
export interface LetterJobRow {
  orderId: string;
  caseNumber: string;
  state: "pending" | "running" | "failed";
  attempts: number;
  /** Pending: when it is due; running: when its lease runs out; failed: null. */
  dueAt: Date | null;
  leaseOwner: string | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function jobRow(r: Record<string, unknown>): LetterJobRow {
  return {
    orderId: String(r.order_id),
    caseNumber: String(r.case_number),
    state: r.state as LetterJobRow["state"],
    attempts: Number(r.attempts),
    dueAt: maybeDate(r.due_at),
    leaseOwner: (r.lease_owner as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

/**
 * The body of a CTE that records the letter job of a pre-incasso order as the order is put on its
 * case: one row per case number in `source` (the CTE that inserted the order's `case_orders` row,
 * so a repeat that inserts none records nothing), due at once, in the placing statement's own
 * transaction. Idempotent on the order id. The placement statement uses it,
 * so a placed pre-incasso order always has its job and placing costs no statement more
 * (decision case-system-wik-letter-jobs).
 *
 * @example
 * `WITH o AS (INSERT INTO case_orders ... RETURNING case_number), j AS (${letterJobInsert("o", "$1", "$5", "$10")}) SELECT 1`
 */
export function letterJobInsert(source: string, orderId: string, type: string, at: string): string {
  return `INSERT INTO case_letter_jobs (order_id, case_number, state, due_at, created_at, updated_at)
    SELECT ${orderId}, ${source}.case_number, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    FROM ${source} WHERE ${type}::text = 'pre-incasso'
    ON CONFLICT (order_id) DO NOTHING RETURNING order_id`;
}

/**
 * Claims up to `limit` due jobs for `owner` in one statement: pending jobs whose time has come and
 * running jobs whose lease ran out (their runner stopped). A running job whose lease ran out on
 * its last attempt is not tried again but failed, so a letter that kills its runner cannot do so
 * forever. `FOR UPDATE SKIP LOCKED` keeps two runners from claiming the same job. Only jobs whose
 * order is stored (an `orders` row) are claimed: the job is recorded with the placement, before
 * the order row, and the letter's `correspondence.sent` must name an order the client can read.
 */
export async function claimLetterJobs(
  db: Executor,
  input: { owner: string; now: Date; leaseSeconds: number; limit: number; maxAttempts: number },
): Promise<LetterJobRow[]> {
  const now = input.now.toISOString();
  const lease = new Date(input.now.getTime() + input.leaseSeconds * 1000).toISOString();
  const { rows } = await db.query<Record<string, unknown>>(
    `WITH due AS (
       SELECT order_id FROM case_letter_jobs
       WHERE state IN ('pending', 'running') AND due_at <= $2
         AND EXISTS (SELECT 1 FROM orders o WHERE o.id = case_letter_jobs.order_id)
       ORDER BY due_at, order_id
       LIMIT $4
       FOR UPDATE SKIP LOCKED),
     -- Runs although nothing reads it (a data-modifying WITH always does); its rows are not claimed.
     gone AS (
       UPDATE case_letter_jobs j SET state = 'failed', due_at = NULL, lease_owner = NULL, updated_at = $2,
         last_error = 'the letter runner stopped during the last attempt'
       FROM due WHERE j.order_id = due.order_id AND j.state = 'running' AND j.attempts >= $5
       RETURNING j.order_id),
     claimed AS (
       UPDATE case_letter_jobs j SET state = 'running', attempts = j.attempts + 1, lease_owner = $1,
         due_at = $3, updated_at = $2
       FROM due WHERE j.order_id = due.order_id AND NOT (j.state = 'running' AND j.attempts >= $5)
       RETURNING j.*)
     SELECT * FROM claimed ORDER BY order_id`,
    [input.owner, now, lease, input.limit, input.maxAttempts],
  );
  return rows.map(jobRow);
}

/**
 * Records a failed attempt of a claimed job: pending again at `nextAttemptAt`, or failed for good
 * when that is null. Only while `owner` still holds the claim of this attempt; false otherwise (the
 * lease ran out and another runner took the job, or the letter was made meanwhile).
 */
export async function failLetterJob(
  db: Executor,
  input: {
    orderId: string;
    owner: string;
    attempt: number;
    now: Date;
    error: string;
    nextAttemptAt: Date | null;
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE case_letter_jobs SET state = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
       due_at = $5::timestamptz, lease_owner = NULL, last_error = $4, updated_at = $6
     WHERE order_id = $1 AND lease_owner = $2 AND attempts = $3 AND state = 'running'`,
    [
      input.orderId,
      input.owner,
      input.attempt,
      input.error,
      input.nextAttemptAt?.toISOString() ?? null,
      input.now.toISOString(),
    ],
  );
  return rowCount === 1;
}

/** Deletes an order's job: its letter exists (run inside the letter's transaction when it is made). */
export async function deleteLetterJob(db: Executor, orderId: string): Promise<void> {
  await db.query("DELETE FROM case_letter_jobs WHERE order_id = $1", [orderId]);
}

/** Jobs still to do or failed, newest first; optionally one state or one case. */
export async function listLetterJobs(
  db: Executor,
  query: { state?: LetterJobRow["state"]; caseNumber?: string; limit: number },
): Promise<LetterJobRow[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT * FROM case_letter_jobs
     WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR case_number = $2)
     ORDER BY created_at DESC, order_id DESC LIMIT $3`,
    [query.state ?? null, query.caseNumber ?? null, query.limit],
  );
  return rows.map(jobRow);
}

/**
 * Makes a failed or pending job due now with a fresh count of attempts. A running job whose lease
 * holds is left alone (undefined is returned for it as for an unknown order).
 */
export async function retryLetterJob(
  db: Executor,
  input: { orderId: string; now: Date },
): Promise<LetterJobRow | undefined> {
  const now = input.now.toISOString();
  const { rows } = await db.query<Record<string, unknown>>(
    `UPDATE case_letter_jobs SET state = 'pending', attempts = 0, due_at = $2, lease_owner = NULL, updated_at = $2
     WHERE order_id = $1 AND NOT (state = 'running' AND due_at > $2)
     RETURNING *`,
    [input.orderId, now],
  );
  return rows[0] ? jobRow(rows[0]) : undefined;
}

/** One job, or undefined. */
export async function findLetterJob(db: Executor, orderId: string): Promise<LetterJobRow | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    "SELECT * FROM case_letter_jobs WHERE order_id = $1",
    [orderId],
  );
  return rows[0] ? jobRow(rows[0]) : undefined;
}

/**
 * The catch-up of a letter runner: records the jobs of pre-incasso orders placed since `since` that
 * are stored but have neither a job nor a letter (orders placed before jobs were recorded with the
 * placement, or whose job an operator deleted). Returns how many jobs it recorded.
 *
 * A pending job whose order was never stored (the placement committed, the order row did not) is
 * kept, however old: the client's retry derives the same order id however late it comes (decision
 * orders-engine-order-ids), places again (which records nothing new) and stores the row, and the
 * job is claimed at the next poll. Until then the claim passes it over.
 */
export async function recordMissingLetterJobs(
  db: Executor,
  input: { since: Date; now: Date },
): Promise<number> {
  const { rows } = await db.query<{ recorded: number }>(
    `WITH recorded AS (
       INSERT INTO case_letter_jobs (order_id, case_number, state, due_at, created_at, updated_at)
       SELECT co.order_id, co.case_number, 'pending', $2, $2, $2
       FROM case_orders co JOIN orders o ON o.id = co.order_id
       WHERE co.type = 'pre-incasso' AND co.added_at >= $1
         AND NOT EXISTS (SELECT 1 FROM case_letter_jobs j WHERE j.order_id = co.order_id)
         AND NOT EXISTS (SELECT 1 FROM case_letters l WHERE l.order_id = co.order_id)
       ON CONFLICT (order_id) DO NOTHING
       RETURNING order_id)
     SELECT count(*)::int AS recorded FROM recorded`,
    [input.since.toISOString(), input.now.toISOString()],
  );
  return Number(rows[0]?.recorded ?? 0);
}
