import { z } from "zod";

/**
 * The JSON Schema keywords this package sends to OpenAI in strict mode. OpenAI's Structured
 * Outputs guide ("Supported schemas") accepts only a subset of JSON Schema when `strict` is true:
 * every object lists all its properties in `required` and sets `additionalProperties: false`,
 * optional values are expressed as a union with null, and constraints such as `minLength`,
 * `maxLength`, `pattern`, `format`, `minimum` or `minItems` are unsupported or only partly
 * supported depending on the model. We keep to the part every strict model accepts and check the
 * rest with zod after the call (decision pdf-guard-openai-strict-schema).
 */
export const STRICT_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
]);

/**
 * Turns a zod object schema into a JSON Schema in OpenAI's strict subset: keywords outside
 * {@link STRICT_SCHEMA_KEYWORDS} are dropped, every object gets `additionalProperties: false` and
 * all its properties in `required`. A property zod treats as optional cannot be expressed (the
 * model must always send it, as null when empty), so it is refused here rather than becoming an
 * answer zod would reject.
 */
export function toStrictJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { target: "draft-7", io: "output", unrepresentable: "throw" });
  return strip(generated, "") as Record<string, unknown>;
}

function strip(node: unknown, path: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => strip(item, `${path}/${i}`));
  if (typeof node !== "object" || node === null) return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!STRICT_SCHEMA_KEYWORDS.has(key)) continue;
    if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, sub]) => [
          name,
          strip(sub, `${path}/properties/${name}`),
        ]),
      );
    } else if (key === "enum" || key === "const" || key === "required" || key === "description") {
      out[key] = value;
    } else {
      out[key] = strip(value, `${path}/${key}`);
    }
  }
  if (source.type === "object") {
    const names = Object.keys((source.properties as Record<string, unknown> | undefined) ?? {});
    const required = new Set((source.required as string[] | undefined) ?? []);
    const optional = names.filter((n) => !required.has(n));
    if (optional.length > 0) {
      throw new TypeError(
        `strict JSON schema: ${path || "/"} has optional properties (${optional.join(", ")}); make them nullable`,
      );
    }
    out.required = names;
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Lists the places where a JSON Schema leaves OpenAI's strict subset: unknown keywords, objects
 * without `additionalProperties: false` or with properties missing from `required`, and an `anyOf`
 * at the root. Empty when the schema is fine. Used by the tests on what is actually sent.
 */
export function strictSchemaViolations(schema: unknown): string[] {
  const problems: string[] = [];
  if (typeof schema !== "object" || schema === null || (schema as { type?: unknown }).type !== "object") {
    problems.push("/: the root must be an object schema");
  }
  if ((schema as { anyOf?: unknown } | null)?.anyOf !== undefined) problems.push("/: anyOf at the root");
  const visit = (node: unknown, path: string) => {
    if (typeof node !== "object" || node === null) return;
    const n = node as Record<string, unknown>;
    for (const key of Object.keys(n)) {
      if (!STRICT_SCHEMA_KEYWORDS.has(key)) problems.push(`${path || "/"}: keyword ${key}`);
    }
    if (n.type === "object") {
      if (n.additionalProperties !== false)
        problems.push(`${path || "/"}: additionalProperties is not false`);
      const names = Object.keys((n.properties as Record<string, unknown> | undefined) ?? {});
      const required = new Set((n.required as string[] | undefined) ?? []);
      for (const name of names)
        if (!required.has(name)) problems.push(`${path || "/"}: ${name} not required`);
    }
    for (const [name, sub] of Object.entries((n.properties as Record<string, unknown> | undefined) ?? {})) {
      visit(sub, `${path}/properties/${name}`);
    }
    if (n.items !== undefined) visit(n.items, `${path}/items`);
    if (Array.isArray(n.anyOf)) {
      for (const [i, sub] of n.anyOf.entries()) visit(sub, `${path}/anyOf/${i}`);
    }
  };
  visit(schema, "");
  return problems;
}
