import type { Migration } from "@incasso/store-sql";

/**
 * The tables of the built-in case system, owned by this package and applied with the store's own
 * (decision case-system-owns-its-migrations). They keep the version numbers they had in
 * `@incasso/store-sql`, so a database that applied them there is unaffected: version 11 in the
 * order engine's range (issue 8), 30 to 39 case handling (issue 9).
 *
 * - Version 11: cases with their number sequence, the orders on each case, debtors with
 *   addresses, invoices, attachments (bytes in the database), notes, tasks and payments. Every row
 *   an order adds is keyed by the order id and its position, which is what makes each call of the
 *   case system idempotent on the order id.
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
 * - Version 32: the letter details of each organisation (`case_letter_details`: sender, IBAN, KvK
 *   number, contact), which the 14-day letter prints (decision case-system-letter-details).
 * - Version 33: the rest of an attachment stored in parts (decision case-system-attachment-parts).
 * - Version 34: each letter keeps the newest invoice it listed (`claims_through`), so the balance
 *   knows which claims the costs it announced cover (decision case-system-collection-costs).
 *
 * @example
 * const store = await openStore({ migrations: mergeMigrations(STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS) });
 */
export const CASE_SYSTEM_MIGRATIONS: readonly Migration[] = [
  {
    version: 11,
    name: "built-in case system",
    statements: [
      "CREATE SEQUENCE case_number_seq",
      `CREATE TABLE cases (
        case_number text PRIMARY KEY,
        organisation_id text NOT NULL REFERENCES organisations (id),
        creditor_id text,
        creditor_name text NOT NULL,
        opened_by_order_id text NOT NULL UNIQUE,
        type text NOT NULL CHECK (type IN ('pre-incasso', 'incasso')),
        reference text,
        title text NOT NULL,
        description text,
        udf_fields jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL,
        open boolean NOT NULL,
        treatment_started_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      "CREATE INDEX cases_organisation ON cases (organisation_id, created_at)",
      `CREATE TABLE case_orders (
        order_id text PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        type text NOT NULL,
        reference text,
        title text NOT NULL,
        description text,
        added_at timestamptz NOT NULL
      )`,
      "CREATE INDEX case_orders_case ON case_orders (case_number)",
      `CREATE TABLE case_debtors (
        order_id text NOT NULL,
        position integer NOT NULL,
        case_number text NOT NULL REFERENCES cases (case_number),
        organisation_id text NOT NULL,
        type text NOT NULL CHECK (type IN ('business', 'individual')),
        name text NOT NULL,
        company_name text,
        first_name text,
        middle_name text,
        last_name text,
        customer_number text,
        email text,
        phone text,
        street text,
        house_number text,
        house_number_suffix text,
        postal_code text,
        city text,
        country text,
        address_set_at timestamptz,
        PRIMARY KEY (order_id, position)
      )`,
      "CREATE INDEX case_debtors_case ON case_debtors (case_number)",
      `CREATE INDEX case_debtors_customer_number ON case_debtors (organisation_id, customer_number)
        WHERE customer_number IS NOT NULL`,
      `CREATE TABLE case_invoices (
        order_id text NOT NULL,
        position integer NOT NULL,
        case_number text NOT NULL REFERENCES cases (case_number),
        invoice_number text NOT NULL,
        invoice_date date NOT NULL,
        due_date date NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        description text,
        added_at timestamptz NOT NULL,
        PRIMARY KEY (order_id, position)
      )`,
      "CREATE INDEX case_invoices_case ON case_invoices (case_number)",
      `CREATE TABLE case_attachments (
        order_id text NOT NULL,
        position integer NOT NULL,
        case_number text NOT NULL REFERENCES cases (case_number),
        filename text NOT NULL,
        document_type text,
        size_bytes integer NOT NULL,
        content bytea NOT NULL,
        stored_at timestamptz NOT NULL,
        PRIMARY KEY (order_id, position)
      )`,
      "CREATE INDEX case_attachments_case ON case_attachments (case_number)",
      `CREATE TABLE case_notes (
        id bigserial PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        order_id text,
        kind text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (order_id, kind)
      )`,
      "CREATE INDEX case_notes_case ON case_notes (case_number, id)",
      `CREATE TABLE case_tasks (
        id text PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        order_id text,
        kind text NOT NULL,
        instructions text NOT NULL,
        reason text,
        amount_cents bigint,
        payment_date date,
        status text NOT NULL CHECK (status IN ('open', 'done')),
        created_at timestamptz NOT NULL,
        completed_at timestamptz
      )`,
      "CREATE INDEX case_tasks_case ON case_tasks (case_number, created_at)",
      `CREATE TABLE case_payments (
        id text PRIMARY KEY,
        case_number text NOT NULL REFERENCES cases (case_number),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        payment_date date NOT NULL,
        task_id text,
        booked_at timestamptz NOT NULL
      )`,
      "CREATE INDEX case_payments_case ON case_payments (case_number)",
    ],
  },
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
  {
    version: 32,
    name: "case handling: letter details per organisation",
    statements: [
      // What the 14-day letter prints of its sender (issue 19; decision case-system-letter-details).
      `CREATE TABLE case_letter_details (
        organisation_id text PRIMARY KEY REFERENCES organisations (id),
        sender_name text,
        street text,
        postal_code text,
        city text,
        iban text,
        bic text,
        kvk_number text,
        phone text,
        email text,
        updated_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 33,
    name: "case handling: attachments in parts",
    statements: [
      // The rest of a file stored in parts on a database without binary parameters (PGlite); the
      // case_attachments row holds the first part (decision case-system-attachment-parts).
      `CREATE TABLE case_attachment_parts (
        order_id text NOT NULL,
        position integer NOT NULL,
        part integer NOT NULL CHECK (part > 0),
        content bytea NOT NULL,
        PRIMARY KEY (order_id, position, part),
        FOREIGN KEY (order_id, position) REFERENCES case_attachments (order_id, position)
      )`,
    ],
  },
  {
    version: 34,
    name: "case handling: the claims a letter covers",
    statements: [
      // Null on letters made before: the balance takes their sent_at instead (every invoice on the
      // case then was listed, as the letter lists the whole case).
      "ALTER TABLE case_letters ADD COLUMN claims_through timestamptz",
    ],
  },
];
