import { storageTarget, withOperations } from "../internal/cli-store.js";
import type { FlagValues } from "./flag-spec.js";
import { printJson } from "./print.js";

/**
 * `incasso migrate`: applies the pending migrations and says which (issue 17: on an empty data
 * directory it used to say "up to date" after applying them all, because the store applied them
 * when it opened). The store is opened without migrating, so this command applies them itself.
 *
 * @example
 * await migrateCommand({ "data-dir": ".data" });
 */
export async function migrateCommand(values: FlagValues): Promise<void> {
  const target = storageTarget(values);
  const where = "dataDir" in target ? target.dataDir : "PostgreSQL";
  const applied = await withOperations(values, "migrate", (ops) => ops.migrate(), { migrate: false });
  if (values.json) return printJson({ applied, target: where });
  console.log(
    applied.length === 0
      ? `The schema is up to date (${where}).`
      : `Applied ${applied.length} migration${applied.length === 1 ? "" : "s"} (${applied.join(", ")}) to ${where}.`,
  );
}
