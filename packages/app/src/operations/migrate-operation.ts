import type { FlagValues } from "../cli/flag-spec.js";
import { storageTarget } from "../internal/storage-target.js";
import { defineOperation } from "./operator-operation.js";

/** Where the command migrates, as it reports it: the data directory, or PostgreSQL. */
function where(values: FlagValues): string {
  const target = storageTarget(values);
  return "dataDir" in target ? target.dataDir : "PostgreSQL";
}

/**
 * `migrate`: applies the pending migrations; the versions applied. `incasso migrate` opens the
 * store without migrating, so it applies them itself and reports which (issue 17: on an empty data
 * directory it used to say "up to date" after the store had applied them all when it opened).
 *
 * @example
 * const applied = await operations.migrate();
 */
export const migrate = defineOperation({
  name: "migrate",
  input: () => ({}),
  positional: [],
  run: ({ store }, _input: Record<string, never>): Promise<number[]> => store.migrate(),
  cli: {
    command: "migrate",
    summary: "apply pending database migrations and say which",
    flags: [],
    direct: () => ({ migrate: false }),
    input: () => ({}),
    json: (applied, _input, values) => ({ applied, target: where(values) }),
    text: (applied, _input, values) =>
      applied.length === 0
        ? `The schema is up to date (${where(values)}).`
        : `Applied ${applied.length} migration${applied.length === 1 ? "" : "s"} (${applied.join(", ")}) to ${where(values)}.`,
  },
});
