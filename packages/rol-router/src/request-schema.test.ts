import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RolRouterRequestSchema } from "./request-schema.js";
import { RolRouterResultSchema } from "./result-schema.js";

describe("RolRouterRequestSchema", () => {
  it("trims strings and keeps unknown fields", () => {
    expect(RolRouterRequestSchema.parse({ woonplaats: " Assen ", naam: " Jansen ", extra: true })).toEqual({
      woonplaats: "Assen",
      naam: "Jansen",
      extra: true,
    });
  });

  it.each([
    [{ naam: "Jansen" }, "woonplaats", "invalid_type"],
    [{ woonplaats: "   ", naam: "Jansen" }, "woonplaats", "too_small"],
    [{ woonplaats: "x".repeat(101), naam: "Jansen" }, "woonplaats", "too_big"],
    [{ woonplaats: "Assen", naam: "x".repeat(201) }, "naam", "too_big"],
    [
      { woonplaats: "Assen", naam: "Jansen", betekeningsdatum: "2026-02-30" },
      "betekeningsdatum",
      "invalid_format",
    ],
    [{ woonplaats: "Assen", naam: "Jansen", gemeente: "" }, "gemeente", "too_small"],
    [{ woonplaats: "Assen", naam: "Jansen", provincie: 3 }, "provincie", "invalid_type"],
  ])("refuses %j at %s with %s", (input, field, code) => {
    const result = RolRouterRequestSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.code])).toEqual([[field, code]]);
  });
});

describe("JSON Schema output for the OpenAPI document", () => {
  it("registers both schemas under their ids", () => {
    type Doc = {
      $ref: string;
      $defs: Record<string, { required: string[]; additionalProperties?: unknown }>;
    };
    const request = z.toJSONSchema(RolRouterRequestSchema, { io: "input" }) as unknown as Doc;
    const result = z.toJSONSchema(RolRouterResultSchema) as unknown as Doc;
    expect(request.$ref).toBe("#/$defs/RolRouterRequest");
    expect(request.$defs.RolRouterRequest?.required).toEqual(["woonplaats", "naam"]);
    expect(request.$defs.RolRouterRequest?.additionalProperties).toEqual({});
    expect(result.$ref).toBe("#/$defs/RolRouterResult");
    expect(result.$defs.RolRouterResult?.required).toEqual([
      "object",
      "status",
      "woonplaats",
      "maatgevende_letter",
      "disclaimer",
      "bronvermelding",
      "ontbrekend",
      "opmerkingen",
      "data_versie",
    ]);
    expect(Object.keys(result.$defs).sort()).toEqual([
      "RolRouterPlaceOption",
      "RolRouterResult",
      "RolRouterRoldag",
    ]);
  });
});
