import { withOperations } from "../internal/cli-store.js";
import type { KeySummary } from "../operator/operations.js";
import type { FlagValues } from "./flag-spec.js";
import { oneOf, positiveInt, required, text } from "./flag-values.js";
import { printJson } from "./print.js";
import { UsageError } from "./usage-error.js";

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
  return `${k.id}  ${k.hint}  ${k.organisation} (${k.creditor_name})  ${flags}${k.revoked_at ? `  revoked ${k.revoked_at}` : ""}`;
}

/**
 * `incasso keys create`: issues an API key and shows it once.
 *
 * @example
 * await keysCreate({ organisation: "Acme BV", mode: "test", "data-dir": ".data" });
 */
export async function keysCreate(values: FlagValues): Promise<void> {
  const mode = oneOf(values, "mode", ["live", "test"] as const);
  if (mode === undefined) throw new UsageError("--mode is required");
  const organisation = required(values, "organisation");
  const visibility = oneOf(values, "visibility", ["own", "organisation"] as const);
  // Stored as a 4-byte integer: nine digits at most.
  const perMinute = positiveInt(values, "per-minute", "a positive whole number", 9);
  const perDay = positiveInt(values, "per-day", "a positive whole number", 9);
  const creditorName = text(values, "creditor-name");
  const created = await withOperations(values, "keys", (ops) =>
    ops.createKey({
      organisation,
      mode,
      ...(creditorName !== undefined ? { creditor_name: creditorName } : {}),
      ...(visibility ? { visibility } : {}),
      creditor_management: values["creditor-management"] === true,
      ...(perMinute ? { per_minute: perMinute } : {}),
      ...(perDay ? { per_day: perDay } : {}),
    }),
  );
  if (values.json) return printJson(created);
  if (created.organisation_created) {
    console.log(`Created organisation ${created.organisation} (creditor ${created.creditor_name}).`);
  }
  // The id once, at the start of the key's line (issue 17: it used to be printed twice).
  console.log(`API key ${keyLine(created)}`);
  console.log("The key is shown once; store it now:");
  console.log(created.key);
}

/**
 * `incasso keys list`: every key, never the keys themselves.
 *
 * @example
 * await keysList({ json: true });
 */
export async function keysList(values: FlagValues): Promise<void> {
  const list = await withOperations(values, "keys", (ops) => ops.listKeys());
  if (values.json) return printJson(list);
  if (list.length === 0)
    console.log("No API keys yet. Create one with: incasso keys create --organisation NAME --mode test");
  for (const k of list) console.log(keyLine(k));
}

/**
 * `incasso keys revoke ID`.
 *
 * @example
 * await keysRevoke("key_0123456789abcdef", {});
 */
export async function keysRevoke(id: string, values: FlagValues): Promise<void> {
  const revoked = await withOperations(values, "keys", (ops) => ops.revokeKey(id));
  if (values.json) return printJson(revoked);
  console.log(`Revoked ${revoked.id} (${revoked.organisation}) at ${revoked.revoked_at}.`);
}
