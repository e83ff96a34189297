import type { Migration } from "./migrations.js";

/**
 * What a handler does on a case of the built-in case system (issue 9). Versions 30 to 39 belong to
 * case handling.
 *
 * - Version 30: a task can be `rejected` besides `open` and `done`, with the handler's note
 *   (`resolution`); the letters of a case (`case_letters`, the PDF bytes in the database like the
 *   attachments, decision case-system-attachments-in-database); keyset indexes for the handler's
 *   case and task lists. A letter made for an order is unique per order, which makes producing it
 *   idempotent on the order id like every other write of the case system.
 * - Version 31: the letter jobs of pre-incasso orders (`case_letter_jobs`, decision
 *   case-system-wik-letter-jobs). Placing an order records its job in one statement; a letter
 *   runner claims due jobs (`FOR UPDATE SKIP LOCKED` plus a lease in `due_at`), makes the letter and
 *   deletes the job in the letter's transaction, so the table holds only jobs still to do and those
 *   that failed. The partial index on `case_orders.added_at` lets a runner find recent pre-incasso
 *   orders that never got a job (a crash between storing the order and recording its job).
 *
 * @example
 * const steps = [...MIGRATIONS_BEFORE, ...CASE_HANDLING_MIGRATIONS];
 */
export const CASE_HANDLING_MIGRATIONS: readonly Migration[] = [
  {
    version: 30,
    name: "case handling: rejected tasks, letters, handler lists",
    statements: [
      // The CHECK of migration 11 was declared on the column, so PostgreSQL named it <table>_<column>_check.
      "ALTER TABLE case_tasks DROP CONSTRAINT case_tasks_status_check",
      "ALTER TABLE case_tasks ADD CONSTRAINT case_tasks_status_check CHECK (status IN ('open', 'done', 'rejected'))",
      "ALTER TABLE case_tasks ADD COLUMN resolution text",
      "CREATE INDEX case_tasks_listing ON case_tasks (status, created_at DESC, id DESC)",
      "CREATE INDEX cases_listing ON cases (created_at DESC, case_number DESC)",
      `CREATE TABLE case_letters (
        id text PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        order_id text UNIQUE,
        kind text NOT NULL CHECK (kind IN ('wik_letter')),
        filename text NOT NULL,
        letter_date date NOT NULL,
        principal_cents bigint NOT NULL,
        collection_costs_cents bigint NOT NULL,
        size_bytes integer NOT NULL,
        content bytea NOT NULL,
        sent_at timestamptz NOT NULL
      )`,
      "CREATE INDEX case_letters_case ON case_letters (case_number, sent_at)",
    ],
  },
  {
    version: 31,
    name: "case handling: letter jobs",
    statements: [
      // due_at: when a pending job is due, and when a running job's lease runs out; null once failed.
      `CREATE TABLE case_letter_jobs (
        order_id text PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        state text NOT NULL CHECK (state IN ('pending', 'running', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        due_at timestamptz,
        lease_owner text,
        last_error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      "CREATE INDEX case_letter_jobs_due ON case_letter_jobs (due_at) WHERE state IN ('pending', 'running')",
      "CREATE INDEX case_orders_pre_incasso ON case_orders (added_at) WHERE type = 'pre-incasso'",
    ],
  },
];
