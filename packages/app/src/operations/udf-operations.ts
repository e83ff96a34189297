import type { UdfFieldDefinition } from "@incasso/core";
import { flag, ORGANISATION_FLAG } from "../cli/common-flags.js";
import { required } from "../cli/flag-values.js";
import { defineOperation } from "./operator-operation.js";

// The custom case fields of an organisation (`incasso udf …`, docs/decisions/keys-udf-fields.md).

const NAME_FLAG = flag("name", "the field's name", "FIELD");

/**
 * `set-udf`: defines a custom case field of an organisation.
 *
 * @example
 * await operations.setUdf({ organisation: "Acme BV", name: "dossier", type: "text" });
 */
export const setUdf = defineOperation({
  name: "set-udf",
  fields: { organisation: "string", name: "string", type: "string" },
  async run(
    { store },
    input: { organisation: string; name: string; type: string },
  ): Promise<UdfFieldDefinition> {
    const { setUdfField } = await import("@incasso/core");
    return setUdfField(store, input);
  },
  cli: {
    group: "udf",
    command: "set",
    summary: "define a custom case field",
    flags: [ORGANISATION_FLAG, NAME_FLAG, flag("type", "text, number, boolean or date", "TYPE")],
    input: (values) => ({
      organisation: required(values, "organisation"),
      name: required(values, "name"),
      type: required(values, "type"),
    }),
    text: (def, input) => `Field ${def.name} (${def.type}) is set for ${input.organisation}.`,
  },
});

/**
 * `list-udf`: the custom case fields of an organisation.
 *
 * @example
 * const fields = await operations.listUdf("Acme BV");
 */
export const listUdf = defineOperation({
  name: "list-udf",
  fields: { organisation: "string" },
  input: (body) => ({ organisation: body.organisation as string }),
  positional: ["organisation"],
  async run({ store }, input: { organisation: string }): Promise<UdfFieldDefinition[]> {
    const { listUdfFields } = await import("@incasso/core");
    return listUdfFields(store, input.organisation);
  },
  cli: {
    group: "udf",
    command: "list",
    summary: "the custom case fields of an organisation",
    flags: [ORGANISATION_FLAG],
    input: (values) => ({ organisation: required(values, "organisation") }),
    text: (defs, input) =>
      defs.length === 0
        ? `${input.organisation} has no custom case fields.`
        : defs.map((d) => `${d.name}  ${d.type}`).join("\n"),
  },
});

/**
 * `remove-udf`: removes a custom case field; nothing is returned (null on the endpoint).
 *
 * @example
 * await operations.removeUdf({ organisation: "Acme BV", name: "dossier" });
 */
export const removeUdf = defineOperation({
  name: "remove-udf",
  fields: { organisation: "string", name: "string" },
  async run({ store }, input: { organisation: string; name: string }): Promise<void> {
    const { removeUdfField } = await import("@incasso/core");
    await removeUdfField(store, input);
  },
  cli: {
    group: "udf",
    command: "remove",
    summary: "remove a custom case field",
    flags: [ORGANISATION_FLAG, NAME_FLAG],
    input: (values) => ({ organisation: required(values, "organisation"), name: required(values, "name") }),
    json: (_result, input) => ({ ...input, removed: true }),
    text: (_result, input) => `Field ${input.name} is removed for ${input.organisation}.`,
  },
});
