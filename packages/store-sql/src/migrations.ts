import type { SqlDatabase } from "./database.js";
import { OPERATOR_MIGRATIONS } from "./migrations-operators.js";
import { ORDER_MIGRATIONS } from "./migrations-orders.js";
import { WEBHOOK_MIGRATIONS } from "./migrations-webhooks.js";

/**
 * One step of the schema. Steps are applied in `version` order, each once, and never edited after
 * release: a change is a new step. Statements are separate strings because PGlite's parameterised
 * `query` runs one statement at a time.
 *
 * @example
 * const step: Migration = { version: 2, name: "orders", statements: ["CREATE TABLE orders (...)"] };
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/**
 * The store's own schema, in code (architecture: "migrations in code, no migration files read from
 * disk at run time"): keys, organisations, creditors, idempotency, rate limits, custom fields
 * (version 1), operators (2), when each key was last used (3), orders (10; 12 the outcome note of
 * a control request; 13 orders of a host's own credentials; 14 placement intents; 15 pending runs
 * of a host's order handlers) and the webhook outbox (20, 21). Another package's tables come with that package (the built-in case system's:
 * `CASE_SYSTEM_MIGRATIONS` of `@incasso/case-system`, versions 11 and 30 to 39) and are passed to
 * `openStore` merged with these by {@link mergeMigrations} (decision
 * case-system-owns-its-migrations; docs/storage.md).
 *
 * @example
 * const store = await openStore({ migrations: STORE_MIGRATIONS }); // the default
 */
export const STORE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "organisations, api keys, creditors, idempotency, rate limits, udf fields",
    statements: [
      `CREATE TABLE organisations (
        id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        creditor_name text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE api_keys (
        id text PRIMARY KEY,
        organisation_id text NOT NULL REFERENCES organisations (id),
        mode text NOT NULL CHECK (mode IN ('live', 'test')),
        visibility text NOT NULL CHECK (visibility IN ('own', 'organisation')),
        creditor_management boolean NOT NULL DEFAULT false,
        per_minute integer NOT NULL CHECK (per_minute > 0),
        per_day integer NOT NULL CHECK (per_day > 0),
        key_hash text NOT NULL UNIQUE,
        key_hint text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      "CREATE INDEX api_keys_organisation ON api_keys (organisation_id, created_at)",
      `CREATE TABLE creditors (
        id text PRIMARY KEY,
        organisation_id text NOT NULL REFERENCES organisations (id),
        reference text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (organisation_id, reference)
      )`,
      "CREATE INDEX creditors_page ON creditors (organisation_id, created_at, id)",
      `CREATE TABLE idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        token text NOT NULL,
        lease_expires_at timestamptz,
        response_status integer,
        response_headers jsonb,
        response_body text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (scope, key)
      )`,
      "CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)",
      `CREATE TABLE rate_limit_counters (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (bucket, window_start)
      )`,
      "CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at)",
      `CREATE TABLE udf_fields (
        organisation_id text NOT NULL REFERENCES organisations (id),
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('text', 'number', 'boolean', 'date')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organisation_id, name)
      )`,
    ],
  },
  // Operators of the console and their failed logins (issue 19).
  ...OPERATOR_MIGRATIONS,
  {
    // When each key last authenticated a request, to the minute, written at most once a minute
    // per key (issue 31; decision keys-last-used). Null: not used since the column came.
    version: 3,
    name: "api keys: when each was last used",
    statements: ["ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz"],
  },
  // The order engine owns versions 10 to 19 (issue 8); 11 is the built-in case system's.
  ...ORDER_MIGRATIONS,
  // Webhook delivery owns versions 20 to 29 (issue 9); 30 to 39 are the built-in case system's.
  ...WEBHOOK_MIGRATIONS,
];

/**
 * The steps of several packages as one list in version order, for `openStore({ migrations })`. A
 * version twice is refused unless it is the same step (the same object or the same name and
 * statements), so two packages can never claim one number.
 *
 * @example
 * const migrations = mergeMigrations(STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS); // @incasso/case-system
 */
export function mergeMigrations(...lists: readonly (readonly Migration[])[]): Migration[] {
  const byVersion = new Map<number, Migration>();
  for (const m of lists.flat()) {
    const known = byVersion.get(m.version);
    if (
      known !== undefined &&
      known !== m &&
      (known.name !== m.name || known.statements.join("\n") !== m.statements.join("\n"))
    ) {
      throw new Error(`Two migrations claim version ${m.version}: "${known.name}" and "${m.name}".`);
    }
    byVersion.set(m.version, m);
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}

// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 7_274_001;

/**
 * Applies the steps not applied yet, in one transaction under an advisory lock, so several server
 * instances starting at once apply each step exactly once. Returns the versions it applied.
 *
 * @example
 * const applied = await migrate(db); // [1, 2, 3, 10, 12, 13, 14, 15, 20, 21] on an empty database, [] afterwards
 */
export async function migrate(
  db: SqlDatabase,
  migrations: readonly Migration[] = STORE_MIGRATIONS,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    // A statement_timeout of the role or the server (the way to set one behind a transaction
    // pooler) must not cancel a step that rebuilds an index, nor the wait for another instance's
    // lock; SET LOCAL lasts for this transaction only, so it is safe behind a pooler too (decision
    // store-timeouts-and-keepalive).
    await tx.query("SET LOCAL statement_timeout = 0");
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.query(`CREATE TABLE IF NOT EXISTS incasso_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>("SELECT version FROM incasso_migrations");
    // Each package owns a range of ten versions (store 1–9, orders 10–19, webhooks 20–29, the
    // built-in case system 11 and 30–39, the console 50–59). A range none of the given steps
    // falls in belongs to a package this process does not run, such as the console's audit table
    // for a host that embeds the API without it: those steps are left alone, not refused
    // (decision case-system-owns-its-migrations).
    const rangeOf = (version: number) => Math.floor(version / 10);
    const ranges = new Set(migrations.map((m) => rangeOf(m.version)));
    const done = new Set(rows.map((r) => r.version).filter((v) => ranges.has(rangeOf(v))));
    const newest = Math.max(0, ...done);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    if (newest > known) {
      throw new Error(
        `The database has schema version ${newest}, newer than this release knows (${known}); upgrade incasso, or pass every package's migrations (e.g. CASE_SYSTEM_MIGRATIONS of @incasso/case-system).`,
      );
    }
    // A step applied by a package whose steps were not passed (its tables would be left to an old
    // schema without anyone knowing): refused like a newer release (decision
    // case-system-owns-its-migrations).
    const versions = new Set(migrations.map((m) => m.version));
    const unknown = [...done].filter((v) => !versions.has(v)).sort((a, b) => a - b);
    if (unknown.length > 0) {
      throw new Error(
        `The database has schema versions ${unknown.join(", ")} that these migrations do not include; pass every package's migrations (e.g. CASE_SYSTEM_MIGRATIONS of @incasso/case-system).`,
      );
    }
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      for (const statement of m.statements) await tx.query(statement);
      await tx.query("INSERT INTO incasso_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/**
 * The versions of `migrations` this database has not applied, oldest first; an empty list when the
 * schema is current. Reads only (no lock, no table created), so a readiness probe can call it
 * often; a database that has never been migrated lacks every version.
 *
 * @example
 * await pendingMigrations(db); // [] once migrate(db) has run
 */
export async function pendingMigrations(
  db: SqlDatabase,
  migrations: readonly Migration[] = STORE_MIGRATIONS,
): Promise<number[]> {
  const { rows: table } = await db.query<{ present: boolean }>(
    "SELECT to_regclass('incasso_migrations') IS NOT NULL AS present",
  );
  const done = new Set<number>();
  if (table[0]?.present) {
    const { rows } = await db.query<{ version: number }>("SELECT version FROM incasso_migrations");
    for (const r of rows) done.add(Number(r.version));
  }
  return migrations
    .map((m) => m.version)
    .filter((v) => !done.has(v))
    .sort((a, b) => a - b);
}
