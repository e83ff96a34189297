import {
  mergeMigrations,
  type OpenStoreOptions,
  openStore,
  type SqlStore,
  STORE_MIGRATIONS,
} from "@incasso/store-sql";
import { CASE_SYSTEM_MIGRATIONS } from "./migrations.js";

/**
 * Opens the store with the built-in case system's tables: `openStore` of @incasso/store-sql with
 * the given migrations (default the store's own) merged with {@link CASE_SYSTEM_MIGRATIONS}
 * (decision case-system-owns-its-migrations). For a host, a test or a benchmark that uses the
 * built-in case system without `createIncasso()`, which composes every package's steps itself.
 *
 * @example
 * const store = await openCaseSystemStore(); // PGlite in memory, with the case tables
 * const cases = createBuiltInCaseSystem({ store });
 */
export function openCaseSystemStore(options: OpenStoreOptions = {}): Promise<SqlStore> {
  return openStore({
    ...options,
    migrations: mergeMigrations(options.migrations ?? STORE_MIGRATIONS, CASE_SYSTEM_MIGRATIONS),
  });
}
