import { randomBytes } from "node:crypto";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { openCaseSystemStore } from "../../open-case-system-store.js";

/**
 * A database a case-system test runs on: embedded PGlite, or PostgreSQL in a schema of its own.
 *
 * @example
 * const target: StoreTarget = { name: "PGlite", open: () => openCaseSystemStore() };
 */
export interface StoreTarget {
  name: string;
  open: () => Promise<SqlStore>;
  /** The PostgreSQL schema the store works in, dropped by {@link closeTarget}. */
  schema?: string;
}

/**
 * PGlite, and PostgreSQL whenever TEST_DATABASE_URL names a test database, in a schema of its own
 * (`prefix_` and random hex) so that files running side by side never meet.
 *
 * @example
 * describe.each(storeTargets("case_place"))("placeOnCase on $name", (target) => { ... });
 */
export function storeTargets(prefix: string): StoreTarget[] {
  const targets: StoreTarget[] = [{ name: "PGlite", open: () => openCaseSystemStore() }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `${prefix}_${randomBytes(6).toString("hex")}`;
    targets.push({
      name: "PostgreSQL",
      open: () => openCaseSystemStore({ databaseUrl: url, schema }),
      schema,
    });
  }
  return targets;
}

/**
 * Drops the target's PostgreSQL schema, if any, and closes the store.
 *
 * @example
 * afterAll(() => closeTarget(target, store));
 */
export async function closeTarget(target: StoreTarget, store: SqlStore): Promise<void> {
  if (target.schema) await store.database.query(`DROP SCHEMA ${target.schema} CASCADE`);
  await store.close();
}

/**
 * A new organisation with a live key on the store, for a test's orders; its id.
 *
 * @example
 * organisationId = await newOrganisation(store, "Placement BV");
 */
export async function newOrganisation(store: SqlStore, name: string): Promise<string> {
  return (await issueApiKey(store, { organisation: name, mode: "live" })).record.organisationId;
}
