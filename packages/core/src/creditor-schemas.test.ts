import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CreateCreditorRequestSchema,
  CreditorListSchema,
  ListCreditorsQuerySchema,
} from "./creditor-schemas.js";
import { UdfFieldDefinitionSchema } from "./udf-fields.js";

describe("creditor schemas", () => {
  it("trims and bounds reference (100) and name (200), refusing control characters", () => {
    expect(CreateCreditorRequestSchema.parse({ reference: " R-1 ", name: " Acme " })).toEqual({
      reference: "R-1",
      name: "Acme",
    });
    expect(CreateCreditorRequestSchema.safeParse({ reference: "x".repeat(101), name: "n" }).success).toBe(
      false,
    );
    expect(CreateCreditorRequestSchema.safeParse({ reference: "r", name: "x".repeat(201) }).success).toBe(
      false,
    );
    expect(CreateCreditorRequestSchema.safeParse({ reference: "a\tb", name: "n" }).success).toBe(false);
    expect(CreateCreditorRequestSchema.safeParse({ reference: "   ", name: "n" }).success).toBe(false);
  });

  it("pages 1 to 100, default 25", () => {
    expect(ListCreditorsQuerySchema.parse({})).toEqual({ limit: 25 });
    expect(ListCreditorsQuerySchema.parse({ limit: "100" })).toEqual({ limit: 100 });
    expect(ListCreditorsQuerySchema.safeParse({ limit: "101" }).success).toBe(false);
    expect(ListCreditorsQuerySchema.safeParse({ limit: "1.5" }).success).toBe(false);
  });

  it("carries OpenAPI ids for the document", () => {
    const json = z.toJSONSchema(CreditorListSchema, { target: "draft-2020-12" }) as {
      $defs?: Record<string, unknown>;
    };
    expect(Object.keys(json.$defs ?? {})).toContain("Creditor");
    expect(UdfFieldDefinitionSchema.safeParse({ name: "a b", type: "text" }).success).toBe(false);
    expect(UdfFieldDefinitionSchema.parse({ name: "contract.id-2", type: "date" })).toEqual({
      name: "contract.id-2",
      type: "date",
    });
  });
});
