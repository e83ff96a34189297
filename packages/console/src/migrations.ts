/**
 * One schema step, shaped like `Migration` of `@incasso/store-sql` so the app merges it with the
 * others (`mergeMigrations`).
 *
 * @example
 * const step: ConsoleMigration = { version: 50, name: "console", statements: ["SELECT 1"] };
 */
export interface ConsoleMigration {
  version: number;
  name: string;
  statements: string[];
}

/**
 * The console's schema steps; the console owns versions 50 to 59. Version 50, the audit trail: the operations
 * the console calls take no actor, so the console records who made each change itself (issue 19,
 * item 2). The indexes serve the case search at 100,000 orders: by reference, by customer number
 * without the organisation, by the start of a debtor's name (case-insensitive, `text_pattern_ops`
 * so a prefix range (`~>=~`, `~<~`) uses it in any collation), by status in the list's order, and a case's
 * webhook events by the `data.order_id` of their payload. Version 51, the live sessions (decision
 * console-session-state).
 *
 * @example
 * const store = await openStore({ migrations: mergeMigrations(STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS, CONSOLE_MIGRATIONS) });
 */
export const CONSOLE_MIGRATIONS: readonly ConsoleMigration[] = [
  {
    version: 50,
    name: "console: audit trail and case search indexes",
    statements: [
      `CREATE TABLE console_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        operator_id text NOT NULL,
        operator_name text NOT NULL,
        action text NOT NULL,
        case_number text,
        subject text,
        detail text
      )`,
      "CREATE INDEX console_audit_case ON console_audit (case_number, id) WHERE case_number IS NOT NULL",
      "CREATE INDEX console_audit_recent ON console_audit (at DESC, id DESC)",
      "CREATE INDEX console_cases_reference ON cases (reference) WHERE reference IS NOT NULL",
      "CREATE INDEX console_cases_status ON cases (status, created_at DESC, case_number DESC)",
      `CREATE INDEX console_case_debtors_customer ON case_debtors (customer_number)
        WHERE customer_number IS NOT NULL`,
      "CREATE INDEX console_case_debtors_name ON case_debtors (lower(name) text_pattern_ops, case_number)",
      "CREATE INDEX console_webhook_events_order ON webhook_events (((payload::jsonb) -> 'data' ->> 'order_id'))",
    ],
  },
  {
    version: 51,
    name: "console: sessions kept on the server",
    // Issue 28, item 3 (decision console-session-state): a session is live while its row is here,
    // so a log-out, a log-out everywhere or a revocation ends it at once. `id` is SHA-256 of the
    // nonce in the cookie; rows past `expires_at` (the session's maximum age) are swept at log-in.
    statements: [
      `CREATE TABLE console_sessions (
        id text PRIMARY KEY,
        operator_id text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      "CREATE INDEX console_sessions_operator ON console_sessions (operator_id)",
      "CREATE INDEX console_sessions_expiry ON console_sessions (expires_at)",
    ],
  },
];
