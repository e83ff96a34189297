import { describe, expect, it } from "vitest";
import { z } from "zod";
import { strictSchemaViolations, toStrictJsonSchema } from "./strict-json-schema.js";

describe("toStrictJsonSchema", () => {
  it("keeps only the strict subset: no length, pattern, format or range keywords", () => {
    const schema = z.object({
      items: z
        .array(
          z.object({
            code: z.enum(["a", "b"]),
            text: z.string().min(1).max(10).regex(/^x/).describe("Some text."),
            email: z.email().nullable(),
            count: z.number().int().min(0).max(5),
          }),
        )
        .max(3),
    });
    const json = toStrictJsonSchema(schema);
    expect(json).toEqual({
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              code: { type: "string", enum: ["a", "b"] },
              text: { type: "string", description: "Some text." },
              email: { anyOf: [{ type: "string" }, { type: "null" }] },
              count: { type: "integer" },
            },
            required: ["code", "text", "email", "count"],
            additionalProperties: false,
          },
        },
      },
      required: ["items"],
      additionalProperties: false,
    });
    expect(strictSchemaViolations(json)).toEqual([]);
  });

  it("refuses an optional property, which strict mode cannot express", () => {
    expect(() => toStrictJsonSchema(z.object({ a: z.string().optional() }))).toThrow(
      "strict JSON schema: / has optional properties (a); make them nullable",
    );
  });
});

describe("strictSchemaViolations", () => {
  it("finds what zod's own JSON Schema would send", () => {
    const plain = z.toJSONSchema(z.object({ title: z.string().min(1).max(200) }), { target: "draft-7" });
    expect(strictSchemaViolations(plain)).toEqual([
      "/: keyword $schema",
      "/properties/title: keyword minLength",
      "/properties/title: keyword maxLength",
    ]);
    expect(strictSchemaViolations({ type: "object", properties: { a: { type: "string" } } })).toEqual([
      "/: additionalProperties is not false",
      "/: a not required",
    ]);
  });
});
