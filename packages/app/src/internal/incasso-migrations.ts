import { CASE_SYSTEM_MIGRATIONS } from "@incasso/case-system";
// From its own entry: the CLI loads no HTTP kernel for commands that only open the store.
import { CONSOLE_MIGRATIONS } from "@incasso/console/migrations";
import { mergeMigrations, STORE_MIGRATIONS } from "@incasso/store-sql";

/**
 * Every package's schema steps that the app's database holds, in version order: the store's own
 * and the built-in case system's (decision case-system-owns-its-migrations), and the console's audit trail
 * and search indexes. Every store the app
 * opens (createIncasso, the CLI commands) applies this list, so a command never meets a version it
 * does not know on a database a server migrated.
 *
 * @example
 * const store = await openStore({ dataDir: ".data", migrations: INCASSO_MIGRATIONS });
 */
export const INCASSO_MIGRATIONS = mergeMigrations(
  STORE_MIGRATIONS,
  CASE_SYSTEM_MIGRATIONS,
  CONSOLE_MIGRATIONS,
);
