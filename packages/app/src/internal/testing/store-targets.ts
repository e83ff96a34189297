import { randomBytes } from "node:crypto";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { INCASSO_MIGRATIONS } from "../incasso-migrations.js";

/**
 * A store with the app's migrations that a test runs on, and how to remove what it made.
 *
 * @example
 * const { store, drop } = await target.open();
 */
export interface AppStoreTarget {
  name: string;
  open: () => Promise<{ store: SqlStore; drop: () => Promise<void> }>;
}

/**
 * PGlite, and PostgreSQL whenever TEST_DATABASE_URL names a test database, in a schema of its own
 * (`prefix_` and random hex, dropped by `drop`) so that files running side by side never meet.
 *
 * @example
 * for (const target of appStoreTargets("operators")) describe(`operators on ${target.name}`, () => { ... });
 */
export function appStoreTargets(prefix: string): AppStoreTarget[] {
  const targets: AppStoreTarget[] = [
    {
      name: "PGlite",
      open: async () => ({
        store: await openStore({ migrations: INCASSO_MIGRATIONS }),
        drop: async () => {},
      }),
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    targets.push({
      name: "PostgreSQL",
      open: async () => {
        const schema = `${prefix}_${randomBytes(6).toString("hex")}`;
        const store = await openStore({ databaseUrl: url, schema, migrations: INCASSO_MIGRATIONS });
        return {
          store,
          drop: () => store.database.query(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined),
        };
      },
    });
  }
  return targets;
}
