import { flag, ORGANISATION_FLAG } from "../cli/common-flags.js";
import { oneOf, positiveInt, required, text } from "../cli/flag-values.js";
import { UsageError } from "../cli/usage-error.js";
import type { CreateKeyInput, KeySummary } from "./key-summary.js";
import { defineOperation } from "./operator-operation.js";

// API keys (`incasso keys …`, docs/decisions/keys-organisations.md). The domain code is imported
// when an operation runs, so the CLI's start loads none of it (issue 17, start time).

function keyLine(k: KeySummary): string {
  const flags = [
    k.mode,
    k.visibility,
    k.creditor_management ? "creditor-management" : "",
    `${k.per_minute}/min`,
    `${k.per_day}/day`,
  ]
    .filter(Boolean)
    .join(" ");
  return `${k.id}  ${k.hint}  ${k.organisation} (${k.creditor_name})  ${flags}${k.revoked_at ? `  revoked ${k.revoked_at}` : ""}${k.last_used_at ? `  last used ${k.last_used_at}` : ""}`;
}

/**
 * `create-key`: issues an API key; the key is in the result once and never again.
 *
 * @example
 * const { key } = await operations.createKey({ organisation: "Acme BV", mode: "test" });
 */
export const createKey = defineOperation({
  name: "create-key",
  fields: {
    organisation: "string",
    creditor_name: "string?",
    mode: "string",
    visibility: "string?",
    creditor_management: "boolean?",
    per_minute: "number?",
    per_day: "number?",
  },
  async run(
    { store },
    input: CreateKeyInput,
  ): Promise<KeySummary & { key: string; organisation_created: boolean }> {
    const [{ issueApiKey }, { keySummary }] = await Promise.all([
      import("@incasso/core"),
      import("./key-summary.js"),
    ]);
    const issued = await issueApiKey(store, {
      organisation: input.organisation,
      ...(input.creditor_name !== undefined ? { creditorName: input.creditor_name } : {}),
      mode: input.mode,
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(input.creditor_management !== undefined ? { creditorManagement: input.creditor_management } : {}),
      ...(input.per_minute !== undefined ? { perMinute: input.per_minute } : {}),
      ...(input.per_day !== undefined ? { perDay: input.per_day } : {}),
    });
    return {
      key: issued.key,
      ...keySummary(issued.record),
      organisation_created: issued.organisationCreated,
    };
  },
  cli: {
    group: "keys",
    command: "create",
    summary: "issue an API key; it is shown once",
    flags: [
      ORGANISATION_FLAG,
      flag("mode", "live or test", "MODE"),
      flag("creditor-name", "its linked creditor, when the organisation is new", "NAME"),
      flag("visibility", "own or organisation: which orders the key sees; default own", "V"),
      flag("creditor-management", "switch on GET/POST /creditors for the key"),
      flag("per-minute", "POST /orders per minute; default 30", "N"),
      flag("per-day", "POST /orders per day; default 500", "N"),
    ],
    input(values) {
      const mode = oneOf(values, "mode", ["live", "test"] as const);
      if (mode === undefined) throw new UsageError("--mode is required");
      const organisation = required(values, "organisation");
      const visibility = oneOf(values, "visibility", ["own", "organisation"] as const);
      // Stored as a 4-byte integer: nine digits at most.
      const perMinute = positiveInt(values, "per-minute", "a positive whole number", 9);
      const perDay = positiveInt(values, "per-day", "a positive whole number", 9);
      const creditorName = text(values, "creditor-name");
      return {
        organisation,
        mode,
        ...(creditorName !== undefined ? { creditor_name: creditorName } : {}),
        ...(visibility ? { visibility } : {}),
        creditor_management: values["creditor-management"] === true,
        ...(perMinute ? { per_minute: perMinute } : {}),
        ...(perDay ? { per_day: perDay } : {}),
      };
    },
    text: (created) =>
      [
        ...(created.organisation_created
          ? [`Created organisation ${created.organisation} (creditor ${created.creditor_name}).`]
          : []),
        // The id once, at the start of the key's line (issue 17: it used to be printed twice).
        `API key ${keyLine(created)}`,
        "The key is shown once; store it now:",
        created.key,
      ].join("\n"),
  },
});

/**
 * `list-keys`: every key, never the keys themselves.
 *
 * @example
 * const keys = await operations.listKeys();
 */
export const listKeys = defineOperation({
  name: "list-keys",
  input: () => ({}),
  positional: [],
  async run({ store }, _input: Record<string, never>): Promise<KeySummary[]> {
    const { keySummary } = await import("./key-summary.js");
    return (await store.apiKeys.list()).map(keySummary);
  },
  cli: {
    group: "keys",
    command: "list",
    summary: "list keys (never the keys themselves)",
    flags: [],
    input: () => ({}),
    text: (list) =>
      list.length === 0
        ? "No API keys yet. Create one with: incasso keys create --organisation NAME --mode test"
        : list.map(keyLine).join("\n"),
  },
});

/**
 * `revoke-key`: revokes a key, at once for a server on this store in this process.
 *
 * @example
 * const revoked = await operations.revokeKey("key_0123456789abcdef");
 */
export const revokeKey = defineOperation({
  name: "revoke-key",
  fields: { id: "string" },
  input: (body) => ({ id: body.id as string }),
  positional: ["id"],
  async run({ store }, input: { id: string }): Promise<KeySummary> {
    const [{ revokeApiKey }, { keySummary }] = await Promise.all([
      import("@incasso/core"),
      import("./key-summary.js"),
    ]);
    const record = await revokeApiKey(store, input.id);
    // A server on this store in this process stops accepting the key now, not after the key
    // cache's TTL (docs/decisions/auth-key-cache.md). Imported here, so the CLI's other
    // commands do not load the HTTP kernel (issue 17, start time).
    const { forgetApiKey } = await import("@incasso/server");
    forgetApiKey(store, input.id);
    return keySummary(record);
  },
  cli: {
    group: "keys",
    command: "revoke",
    summary: "revoke a key",
    args: ["<id>"],
    flags: [],
    input: (_values, [id]) => ({ id: id as string }),
    text: (revoked) => `Revoked ${revoked.id} (${revoked.organisation}) at ${revoked.revoked_at}.`,
  },
});
