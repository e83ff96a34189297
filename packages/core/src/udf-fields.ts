import { z } from "zod";
import { requireOrganisation } from "./api-keys.js";
import { CoreError } from "./errors.js";
import type { IncassoStore, UdfFieldRecord, UdfFieldType } from "./store-port.js";

/** The value types a custom case field may have (spec: CreateOrder `udf_fields`). */
export const UDF_FIELD_TYPES = [
  "text",
  "number",
  "boolean",
  "date",
] as const satisfies readonly UdfFieldType[];

/**
 * Names of custom case fields: 1 to 64 letters, digits, `_`, `-` or `.`. The spec says names are
 * agreed per account and used exactly; this rule keeps them safe on the command line and in JSON
 * (docs/decisions/keys-udf-fields.md).
 */
export const UDF_FIELD_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * One custom case field definition.
 *
 * @example
 * UdfFieldDefinitionSchema.parse({ name: "contract_id", type: "text" });
 */
export const UdfFieldDefinitionSchema = z
  .object({
    name: z.string().regex(UDF_FIELD_NAME).describe("Exact key in `udf_fields`"),
    type: z.enum(UDF_FIELD_TYPES).describe("text, number, boolean or date (YYYY-MM-DD)"),
  })
  .meta({ id: "UdfFieldDefinition", description: "A custom case field agreed with the account." });

/** A custom case field definition. */
export type UdfFieldDefinition = z.output<typeof UdfFieldDefinitionSchema>;

function definition(record: UdfFieldRecord): UdfFieldDefinition {
  return { name: record.name, type: record.type };
}

function checkName(name: string): void {
  if (!UDF_FIELD_NAME.test(name)) {
    throw new CoreError(
      "invalid_udf_field",
      `The field name "${name}" must be 1 to 64 letters, digits, "_", "-" or ".".`,
    );
  }
}

/**
 * Creates or changes a custom case field of an organisation (by name).
 *
 * @example
 * await setUdfField(store, { organisation: "Acme BV", name: "contract_id", type: "text" });
 */
export async function setUdfField(
  store: IncassoStore,
  input: { organisation: string; name: string; type: string; now?: Date },
): Promise<UdfFieldDefinition> {
  checkName(input.name);
  if (!(UDF_FIELD_TYPES as readonly string[]).includes(input.type)) {
    throw new CoreError("invalid_udf_field", `The type must be one of ${UDF_FIELD_TYPES.join(", ")}.`);
  }
  const org = await requireOrganisation(store, input.organisation);
  const record = await store.udfFields.set({
    organisationId: org.id,
    name: input.name,
    type: input.type as UdfFieldType,
    now: input.now ?? new Date(),
  });
  return definition(record);
}

/**
 * The custom case fields of an organisation, by name.
 *
 * @example
 * const fields = await listUdfFields(store, "Acme BV"); // [{ name: "contract_id", type: "text" }]
 */
export async function listUdfFields(
  store: IncassoStore,
  organisation: string,
): Promise<UdfFieldDefinition[]> {
  const org = await requireOrganisation(store, organisation);
  return (await store.udfFields.list(org.id)).map(definition);
}

/**
 * Removes a custom case field; `udf_field_not_found` when it does not exist.
 *
 * @example
 * await removeUdfField(store, { organisation: "Acme BV", name: "contract_id" });
 */
export async function removeUdfField(
  store: IncassoStore,
  input: { organisation: string; name: string },
): Promise<void> {
  const org = await requireOrganisation(store, input.organisation);
  if (!(await store.udfFields.remove(org.id, input.name))) {
    throw new CoreError("udf_field_not_found", `Organisation "${org.name}" has no field "${input.name}".`);
  }
}
