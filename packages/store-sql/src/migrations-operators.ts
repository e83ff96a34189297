import type { Migration } from "./migrations.js";

/**
 * The people who work the console (issue 19): operators with a role and the hash of their
 * credential, and the failed logins counted per operator and per client address for the lock-out
 * (decision operators-credentials). Version 2: the store's own range (1 to 9), beside the API keys
 * whose hashing it follows.
 *
 * - `operators.credential_hash` is SHA-256 of the whole credential, never the credential.
 * - `operator_login_failures.subject` is `operator:<id>` or `address:<client address>`; a row
 *   counts the failures since `window_started_at` and, once locked, until when.
 *
 * @example
 * const versions = OPERATOR_MIGRATIONS.map((m) => m.version); // [2]
 */
export const OPERATOR_MIGRATIONS: readonly Migration[] = [
  {
    version: 2,
    name: "operators and their failed logins",
    statements: [
      `CREATE TABLE operators (
        id text PRIMARY KEY,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('handler', 'admin')),
        credential_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      "CREATE INDEX operators_listing ON operators (created_at, id)",
      `CREATE TABLE operator_login_failures (
        subject text PRIMARY KEY,
        failures integer NOT NULL CHECK (failures > 0),
        window_started_at timestamptz NOT NULL,
        locked_until timestamptz
      )`,
    ],
  },
];
