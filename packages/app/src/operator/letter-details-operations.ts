import {
  type LetterDetails,
  type LetterDetailsUpdate,
  readLetterDetails,
  saveLetterDetails,
} from "@incasso/case-system";
import { requireOrganisation } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";

/**
 * The letter details of an organisation as the operator sees them: its name and what the 14-day
 * letter prints of its sender (decision case-system-letter-details).
 *
 * @example
 * const view: LetterDetailsView = { organisation: "Acme BV", ...details };
 */
export type LetterDetailsView = LetterDetails & { organisation: string };

/**
 * Letter details per organisation (`incasso letter-details …` and the console), the same whether
 * the CLI opens the store itself or reaches a running server through its operator endpoint.
 *
 * @example
 * await ops.setLetterDetails({ organisation: "Acme BV", details: { iban: "NL91ABNA0417164300" } });
 */
export interface LetterDetailsOperations {
  /** Sets the given fields (null clears one); the others keep their values. */
  setLetterDetails(input: { organisation: string; details: LetterDetailsUpdate }): Promise<LetterDetailsView>;
  showLetterDetails(input: { organisation: string }): Promise<LetterDetailsView>;
}

/**
 * The letter details operations on an open store with the built-in case system's tables.
 *
 * @example
 * const ops = directLetterDetailsOperations(store);
 * await ops.showLetterDetails({ organisation: "Acme BV" });
 */
export function directLetterDetailsOperations(
  store: SqlStore,
  options: { now?: () => Date } = {},
): LetterDetailsOperations {
  const now = options.now ?? (() => new Date());
  return {
    async setLetterDetails(input) {
      const organisation = await requireOrganisation(store, String(input.organisation));
      const details = await saveLetterDetails(store.database, organisation.id, input.details, now());
      return { organisation: organisation.name, ...details };
    },
    async showLetterDetails(input) {
      const organisation = await requireOrganisation(store, String(input.organisation));
      return {
        organisation: organisation.name,
        ...(await readLetterDetails(store.database, organisation.id)),
      };
    },
  };
}

/**
 * The letter details operations of a running server, through a caller of its operator endpoint.
 *
 * @example
 * const ops = remoteLetterDetailsOperations((op, args) => call(op, args));
 */
export function remoteLetterDetailsOperations(
  call: <T>(op: string, args?: unknown) => Promise<T>,
): LetterDetailsOperations {
  return {
    setLetterDetails: (input) => call("set-letter-details", input),
    showLetterDetails: (input) => call("show-letter-details", input),
  };
}

/**
 * Runs a letter details operation named on the operator endpoint; undefined for another name.
 *
 * @example
 * await dispatchLetterDetailsOperation(ops, "show-letter-details", { organisation: "Acme BV" });
 */
export async function dispatchLetterDetailsOperation(
  operations: LetterDetailsOperations,
  op: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  switch (op) {
    case "set-letter-details":
      return operations.setLetterDetails(args as never);
    case "show-letter-details":
      return operations.showLetterDetails(args as never);
    default:
      return undefined;
  }
}
