import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AttachmentErrorSchema, AttachmentSchema } from "./attachment-schema.js";
import { DocumentWarningSchema } from "./document-check-types.js";

describe("exported schemas", () => {
  it("carry OpenAPI ids and descriptions", () => {
    expect(z.globalRegistry.get(AttachmentSchema)?.id).toBe("Attachment");
    expect(z.globalRegistry.get(AttachmentErrorSchema)?.id).toBe("AttachmentError");
    expect(z.globalRegistry.get(DocumentWarningSchema)?.id).toBe("DocumentWarning");
    for (const schema of [AttachmentSchema, AttachmentErrorSchema, DocumentWarningSchema]) {
      expect(String(z.globalRegistry.get(schema)?.description).length).toBeGreaterThan(20);
    }
  });

  it("validate the spec's Attachment field rules", () => {
    const ok = { filename: "f.pdf", content_base64: "JVBERi0=", document_type: null };
    expect(AttachmentSchema.safeParse(ok).success).toBe(true);
    expect(AttachmentSchema.safeParse({ filename: "f.pdf", content_base64: "JVBERi0=" }).success).toBe(true);
    expect(AttachmentSchema.safeParse({ ...ok, filename: "x".repeat(121) }).success).toBe(false);
    expect(AttachmentSchema.safeParse({ ...ok, filename: "" }).success).toBe(false);
    expect(AttachmentSchema.safeParse({ ...ok, document_type: "letter" }).success).toBe(false);
  });

  it("produce JSON Schema for the OpenAPI document", () => {
    const doc = z.toJSONSchema(DocumentWarningSchema) as {
      $ref: string;
      $defs: Record<string, { required: string[]; properties: Record<string, unknown> }>;
    };
    // A schema with a meta id becomes a named definition, as the OpenAPI generator expects.
    expect(doc.$ref).toBe("#/$defs/DocumentWarning");
    const json = doc.$defs.DocumentWarning as { required: string[]; properties: Record<string, unknown> };
    expect(json.required).toEqual(["code", "message", "invoice_number"]);
    expect(json.properties.code).toEqual({
      description: "Stable warning code.",
      type: "string",
      enum: [
        "ai_invoice_mismatch",
        "ai_invoice_paid",
        "ai_document_mismatch",
        "wik_letter_detected",
        "wik_letter_incomplete",
      ],
    });
  });
});
