import { describe, expect, it } from "vitest";
import { z } from "zod";
import { WikCalculationSchema } from "./calculation-schema.js";
import { WikRequestSchema } from "./request-schema.js";

const issues = (input: unknown) =>
  WikRequestSchema.safeParse(input).error?.issues.map((issue) => [issue.path.join("."), issue.code]);

describe("WikRequestSchema", () => {
  it("applies the spec's defaults", () => {
    expect(WikRequestSchema.parse({ amount_cents: 1 })).toStrictEqual({
      amount_cents: 1,
      debtor_type: "consumer",
      include_vat: false,
    });
  });

  it("tolerates and drops unknown fields (spec, Versioning 3)", () => {
    expect(
      WikRequestSchema.parse({ amount_cents: 500, debtor_type: "business", due_date: "2024-02-29", foo: 1 }),
    ).toStrictEqual({
      amount_cents: 500,
      debtor_type: "business",
      due_date: "2024-02-29",
      include_vat: false,
    });
  });

  it.each([
    [{}, [["amount_cents", "invalid_type"]]],
    [{ amount_cents: 0 }, [["amount_cents", "too_small"]]],
    [{ amount_cents: 1.5 }, [["amount_cents", "invalid_type"]]],
    [{ amount_cents: "100" }, [["amount_cents", "invalid_type"]]],
    [{ amount_cents: 100, debtor_type: "company" }, [["debtor_type", "invalid_value"]]],
    [{ amount_cents: 100, due_date: "2025-02-29" }, [["due_date", "invalid_format"]]],
    [{ amount_cents: 100, due_date: "31-01-2025" }, [["due_date", "invalid_format"]]],
    [{ amount_cents: 100, due_date: null }, [["due_date", "invalid_type"]]],
    [{ amount_cents: 100, include_vat: "true" }, [["include_vat", "invalid_type"]]],
    [
      { amount_cents: -1, debtor_type: 1, include_vat: 0 },
      [
        ["amount_cents", "too_small"],
        ["debtor_type", "invalid_value"],
        ["include_vat", "invalid_type"],
      ],
    ],
  ])("refuses %j per field", (input, expected) => {
    expect(issues(input)).toEqual(expected);
  });

  it("carries the OpenAPI component ids", () => {
    expect(WikRequestSchema.meta()?.id).toBe("WikRequest");
    expect(WikCalculationSchema.meta()?.id).toBe("WikCalculation");
    const request = z.toJSONSchema(WikRequestSchema, { io: "input" }) as {
      $defs: Record<string, { required: string[]; properties: Record<string, unknown> }>;
    };
    expect(request.$defs.WikRequest?.required).toEqual(["amount_cents"]);
    expect(Object.keys(request.$defs.WikRequest?.properties ?? {})).toEqual([
      "amount_cents",
      "debtor_type",
      "due_date",
      "include_vat",
    ]);
    const response = z.toJSONSchema(WikCalculationSchema) as {
      $defs: Record<string, { required: string[] }>;
    };
    expect(response.$defs.WikCalculation?.required).toEqual([
      "object",
      "debtor_type",
      "principal_amount_cents",
      "collection_costs_cents",
      "collection_costs_vat_cents",
      "interest",
      "total_amount_cents",
      "basis",
    ]);
    // Every interest period says how sure the rate table is of its rate.
    const period = (
      z.toJSONSchema(WikCalculationSchema) as unknown as {
        $defs: {
          WikCalculation: {
            properties: {
              interest: {
                properties: {
                  periods: { items: { required: string[]; properties: Record<string, { enum?: string[] }> } };
                };
              };
            };
          };
        };
      }
    ).$defs.WikCalculation.properties.interest.properties.periods.items;
    expect(period.required).toContain("rate_confidence");
    expect(period.properties.rate_confidence?.enum).toEqual(["high", "medium"]);
  });
});
