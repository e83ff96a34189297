import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isApiError } from "./api-error.js";
import { formatFieldPath, parseOrThrow, zodIssuesToFieldErrors } from "./validation.js";

describe("formatFieldPath", () => {
  it("writes paths in the spec's notation", () => {
    expect(formatFieldPath(["invoices", 0, "amount_cents"])).toBe("invoices[0].amount_cents");
    expect(formatFieldPath(["debtors", 2, "address", "postal_code"])).toBe("debtors[2].address.postal_code");
    expect(formatFieldPath([])).toBe("body");
  });
});

describe("zodIssuesToFieldErrors", () => {
  const schema = z.object({
    amount_cents: z
      .int()
      .min(1)
      .refine((n) => n <= 100, { params: { code: "amount_too_high" }, message: "above the maximum" }),
    debtor_type: z.enum(["consumer", "business"]),
    items: z.array(z.object({ n: z.string() })),
  });

  it("reports every failure at once, with exact paths and codes", () => {
    const input = { amount_cents: 101, debtor_type: "x", items: [{ n: "a" }, {}] };
    const r = schema.safeParse(input);
    expect(r.success).toBe(false);
    const errors = zodIssuesToFieldErrors(r.error?.issues ?? [], input);
    expect(errors.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: "amount_cents", code: "amount_too_high" },
      { field: "debtor_type", code: "invalid_value" },
      { field: "items[1].n", code: "required" },
    ]);
    expect(errors[2]?.message).toBe("is required");
  });

  it("names unknown keys of a strict object one by one", () => {
    const strict = z.strictObject({ a: z.string() });
    const input = { a: "x", b: 1, c: 2 };
    const r = strict.safeParse(input);
    expect(zodIssuesToFieldErrors(r.error?.issues ?? [], input).map((e) => [e.field, e.code])).toEqual([
      ["b", "unknown_field"],
      ["c", "unknown_field"],
    ]);
  });
});

describe("parseOrThrow", () => {
  it("returns the parsed value or throws a 422 validation_error", () => {
    expect(parseOrThrow(z.object({ a: z.int() }), { a: 1 })).toEqual({ a: 1 });
    try {
      parseOrThrow(z.object({ a: z.int() }), { a: "1" });
      expect.unreachable();
    } catch (e) {
      expect(isApiError(e)).toBe(true);
      if (!isApiError(e)) return;
      expect([e.status, e.code, e.detail]).toEqual([
        422,
        "validation_error",
        "The request has 1 invalid field.",
      ]);
      expect(e.errors).toEqual([{ field: "a", code: "invalid_type", message: expect.any(String) }]);
    }
  });
});
