import { withOperations } from "../internal/cli-store.js";
import type { FlagValues } from "./flag-spec.js";
import { required } from "./flag-values.js";
import { printJson } from "./print.js";

/**
 * `incasso udf set|list|remove`: the custom case fields of an organisation.
 *
 * @example
 * await udfCommand("list", { organisation: "Acme BV" });
 */
export async function udfCommand(sub: "set" | "list" | "remove", values: FlagValues): Promise<void> {
  const organisation = required(values, "organisation");
  if (sub === "set") {
    const name = required(values, "name");
    const type = required(values, "type");
    const def = await withOperations(values, "udf", (ops) => ops.setUdf({ organisation, name, type }));
    if (values.json) return printJson(def);
    console.log(`Field ${def.name} (${def.type}) is set for ${organisation}.`);
    return;
  }
  if (sub === "list") {
    const defs = await withOperations(values, "udf", (ops) => ops.listUdf(organisation));
    if (values.json) return printJson(defs);
    if (defs.length === 0) console.log(`${organisation} has no custom case fields.`);
    for (const d of defs) console.log(`${d.name}  ${d.type}`);
    return;
  }
  const name = required(values, "name");
  await withOperations(values, "udf", (ops) => ops.removeUdf({ organisation, name }));
  if (values.json) return printJson({ organisation, name, removed: true });
  console.log(`Field ${name} is removed for ${organisation}.`);
}
