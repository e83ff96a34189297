import { isIsoDate } from "../../calendar-dates.js";
import type { FieldError } from "../field-error.js";
import type { UdfDefinition, UdfValue } from "../normalised-order.js";
import type { Warning } from "../warnings.js";
import { formatFieldPath } from "./field-path.js";

/** What the account's custom-field definitions make of the sent udf_fields. */
export interface UdfCheck {
  errors: FieldError[];
  warnings: Warning[];
  /** Only the defined keys, in the order sent: what is written to the case. */
  known: Record<string, UdfValue>;
}

const TYPE_NAMES: Record<UdfDefinition["type"], string> = {
  text: "a string",
  number: "a number",
  boolean: "a boolean",
  date: "a date written YYYY-MM-DD",
};

/**
 * Types each sent key by its definition (spec CreateOrder.udf_fields: "the type being fixed by the
 * field definition"); a key without a definition is skipped with warning `udf_field_unknown`, one
 * per key, its value not judged ("an unknown key is skipped"). Key names must match exactly.
 */
export function checkUdfFields(
  udf: Record<string, unknown>,
  definitions: ReadonlyMap<string, UdfDefinition>,
): UdfCheck {
  const result: UdfCheck = { errors: [], warnings: [], known: {} };
  for (const [key, value] of Object.entries(udf)) {
    const field = formatFieldPath(["udf_fields", key]);
    const def = definitions.get(key);
    if (def === undefined) {
      result.warnings.push({
        code: "udf_field_unknown",
        message: `Het maatwerkveld ${JSON.stringify(key)} is niet voor dit account afgesproken en is overgeslagen.`,
        invoice_number: null,
      });
      continue;
    }
    const ok =
      def.type === "text"
        ? typeof value === "string"
        : def.type === "number"
          ? typeof value === "number" && Number.isFinite(value)
          : def.type === "boolean"
            ? typeof value === "boolean"
            : isIsoDate(value);
    if (!ok) {
      const code = def.type === "date" && typeof value === "string" ? "invalid_format" : "invalid_type";
      result.errors.push({
        field,
        code,
        message: `must be ${TYPE_NAMES[def.type]} (field type ${def.type})`,
      });
      continue;
    }
    // Defined, never assigned: an assignment of `__proto__` would go to the prototype setter and the
    // field would be lost (decision orders-reserved-keys).
    Object.defineProperty(result.known, key, {
      value: value as UdfValue,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}
