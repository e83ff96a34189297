import type { Migration } from "./migrations.js";

/**
 * The orders (issue 8). Versions 10 to 19 belong to the order engine; version 11, the built-in case
 * system's tables, moved to `@incasso/case-system` with its number (decision
 * case-system-owns-its-migrations).
 *
 * - Version 10, `orders` and `order_actions`: what the API answers with. `metadata`, `udf_fields`,
 *   `debtors` and `warnings` are `json`, not `jsonb`, because responses echo them unchanged and
 *   `jsonb` would reorder keys. Two keyset indexes serve GET /orders for both visibilities
 *   (newest first by created_at, id); `customer_numbers` is a GIN-indexed array for its filter.
 * - Version 12: the handler's note on the outcome of a control request (`outcome_note`), written
 *   by a host's case system through `createCaseReporter` of `@incasso/case-system`.
 * - Version 13: `orders.key_id` no longer refers to `api_keys`: it names the credential that
 *   submitted the order, which under a host's own authentication is the host's, not a stored key
 *   (decision server-pluggable-authentication).
 * - Version 14, `placement_intents`: a live order about to be placed on a case whose order row is
 *   not stored yet (decision orders-engine-placement-intents); `claimed_at` set while the
 *   reconciler withdraws its placement. No foreign key to organisations: the row must be writable
 *   whatever else fails, and it is gone within minutes.
 * - Version 15, `pending_handlers`: a stored order (`kind` `order`) or control request (`action`)
 *   whose host handlers have not settled yet, written in the statement that stores the row and
 *   removed once they settled (decision orders-host-hooks); `principal` is who submitted it, as the
 *   handlers saw it; `claimed_at` set while a sweeper runs them again. No foreign keys, like the
 *   intents: the run goes when its handlers settled.
 *
 * @example
 * const versions = ORDER_MIGRATIONS.map((m) => m.version); // [10, 12, 13, 14, 15]
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
    version: 12,
    name: "control request outcome note",
    statements: ["ALTER TABLE order_actions ADD COLUMN outcome_note text"],
  },
  {
    version: 13,
    name: "orders of a host's own credentials",
    statements: ["ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_key_id_fkey"],
  },
  {
    version: 14,
    name: "placement intents",
    statements: [
      `CREATE TABLE placement_intents (
        order_id text PRIMARY KEY,
        organisation_id text NOT NULL,
        created_at timestamptz NOT NULL,
        claimed_at timestamptz
      )`,
      "CREATE INDEX placement_intents_age ON placement_intents (created_at)",
    ],
  },
  {
    version: 15,
    name: "pending order handlers",
    statements: [
      `CREATE TABLE pending_handlers (
        kind text NOT NULL CHECK (kind IN ('order', 'action')),
        id text NOT NULL,
        order_id text NOT NULL,
        organisation_id text NOT NULL,
        principal json NOT NULL,
        created_at timestamptz NOT NULL,
        claimed_at timestamptz,
        PRIMARY KEY (kind, id)
      )`,
      "CREATE INDEX pending_handlers_age ON pending_handlers (created_at)",
    ],
  },
];
