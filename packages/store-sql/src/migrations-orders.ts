import type { Migration } from "./migrations.js";

/**
 * The orders and the built-in case system (issue 8). Versions 10 to 19 belong to the order engine.
 *
 * - Version 10, `orders` and `order_actions`: what the API answers with. `metadata`, `udf_fields`,
 *   `debtors` and `warnings` are `json`, not `jsonb`, because responses echo them unchanged and
 *   `jsonb` would reorder keys. Two keyset indexes serve GET /orders for both visibilities
 *   (newest first by created_at, id); `customer_numbers` is a GIN-indexed array for its filter.
 * - Version 11, the built-in case system (`@incasso/case-system`): cases with their number
 *   sequence, the orders on each case, debtors with addresses, invoices, attachments (bytes in
 *   the database), notes, tasks and payments. Every row an order adds is keyed by the order id and
 *   its position, which is what makes each call of the case system idempotent on the order id.
 *
 * @example
 * const steps = [...MIGRATIONS_BEFORE, ...ORDER_MIGRATIONS];
 */
export const ORDER_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: "orders and control requests",
    statements: [
      `CREATE TABLE orders (
        id text PRIMARY KEY,
        organisation_id text NOT NULL REFERENCES organisations (id),
        key_id text NOT NULL REFERENCES api_keys (id),
        mode text NOT NULL CHECK (mode IN ('live', 'test')),
        type text NOT NULL CHECK (type IN ('pre-incasso', 'incasso')),
        reference text,
        case_number text,
        case_new boolean NOT NULL,
        creditor_id text,
        debtors json NOT NULL,
        customer_numbers text[] NOT NULL,
        invoice_count integer NOT NULL,
        total_amount_cents bigint NOT NULL,
        metadata json NOT NULL,
        udf_fields json NOT NULL,
        warnings json NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      "CREATE INDEX orders_page_organisation ON orders (organisation_id, created_at DESC, id DESC)",
      "CREATE INDEX orders_page_key ON orders (key_id, created_at DESC, id DESC)",
      "CREATE INDEX orders_case_number ON orders (organisation_id, case_number, created_at DESC, id DESC)",
      "CREATE INDEX orders_reference ON orders (organisation_id, reference, created_at DESC, id DESC)",
      "CREATE INDEX orders_customer_numbers ON orders USING gin (customer_numbers)",
      `CREATE TABLE order_actions (
        id text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders (id),
        organisation_id text NOT NULL REFERENCES organisations (id),
        action text NOT NULL CHECK (action IN ('hold', 'withdraw', 'payments')),
        status text NOT NULL,
        reason text,
        amount_cents bigint,
        payment_date date,
        created_at timestamptz NOT NULL
      )`,
      "CREATE INDEX order_actions_order ON order_actions (order_id, created_at DESC, id DESC)",
    ],
  },
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
];
