/**
 * The JSON type a field of an operation's input must have; `?` after it makes the field optional
 * (it may be absent; null is no value of any type, so it is refused). `integer` is a JSON number without a fraction; `object`
 * is a JSON object (not an array, not null).
 *
 * @example
 * const limit: InputFieldType = "integer?";
 */
export type InputFieldType =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "object"
  | "string?"
  | "integer?"
  | "number?"
  | "boolean?"
  | "object?";

/**
 * The fields of an operation's input and their JSON types. Fields not named are passed on as they
 * are; the handler's own checks judge their values (decision operator-endpoint).
 *
 * @example
 * const fields: InputFields = { organisation: "string", limit: "integer?" };
 */
export type InputFields = Readonly<Record<string, InputFieldType>>;

/**
 * A body sent to the operator endpoint whose shape the operation cannot take: not a JSON object,
 * or a field of the wrong JSON type. The endpoint answers it with 422 `validation_error`
 * (RFC 9110 §15.5.21: the content is well-formed, its meaning is refused).
 *
 * @example
 * try { checkInput("revoke-key", { id: 5 }, { id: "string" }); } catch (e) { isOperatorInputError(e); } // true
 */
export class OperatorInputError extends Error {
  readonly code = "validation_error" as const;
  /** Brand checked by {@link isOperatorInputError}. */
  readonly isIncassoOperatorInputError = true as const;
  constructor(message: string) {
    super(message);
    this.name = "OperatorInputError";
  }
}

/**
 * Whether a thrown value is an {@link OperatorInputError} (by its brand, not `instanceof`).
 *
 * @example
 * isOperatorInputError(new OperatorInputError("id must be a string.")); // true
 */
export function isOperatorInputError(error: unknown): error is OperatorInputError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { isIncassoOperatorInputError?: unknown }).isIncassoOperatorInputError === true
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    default:
      return isObject(value);
  }
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  object: "a JSON object",
};

/**
 * Checks a body sent to operation `name` against its fields and returns it as an object; throws
 * an {@link OperatorInputError} naming every field of the wrong type, so one answer says all that
 * is wrong.
 *
 * @example
 * checkInput("list-udf", { organisation: "Acme BV" }, { organisation: "string" }); // { organisation: "Acme BV" }
 * checkInput("list-udf", { organisation: 7 }, { organisation: "string" }); // throws: organisation must be a string.
 */
export function checkInput(name: string, body: unknown, fields: InputFields = {}): Record<string, unknown> {
  if (!isObject(body)) throw new OperatorInputError(`The body of ${name} must be a JSON object.`);
  const wrong: string[] = [];
  for (const [field, spec] of Object.entries(fields)) {
    const optional = spec.endsWith("?");
    const type = optional ? spec.slice(0, -1) : spec;
    const value = Object.hasOwn(body, field) ? body[field] : undefined;
    if (value === undefined) {
      if (!optional) wrong.push(`${field} is required (${ARTICLE[type]})`);
      continue;
    }
    if (!hasType(value, type)) wrong.push(`${field} must be ${ARTICLE[type]}`);
  }
  if (wrong.length > 0) throw new OperatorInputError(`Wrong input for ${name}: ${wrong.join("; ")}.`);
  return body;
}
