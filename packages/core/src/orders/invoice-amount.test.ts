import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodIssuesToFieldErrors } from "../field-errors.js";
import { InvoiceSchema } from "./invoice-schema.js";
import { ORDER_LIMITS } from "./limits.js";

const invoice = (amount_cents: unknown) => ({
  invoice_number: "F-1",
  invoice_date: "2026-09-01",
  payment_term_days: 30,
  amount_cents,
});

function amountErrors(amount: unknown) {
  const input = invoice(amount);
  const result = InvoiceSchema.safeParse(input);
  return result.success ? [] : zodIssuesToFieldErrors(result.error.issues, input);
}

describe("Invoice.amount_cents", () => {
  it("refuses an amount above the maximum with the schema's own code amount_too_high", () => {
    const tooHigh = [
      { field: "amount_cents", code: "amount_too_high", message: "must be at most 100000000000 cents" },
    ];
    expect(amountErrors(ORDER_LIMITS.amountCents.max + 1)).toEqual(tooHigh);
    // Past 2^53 - 1 too: the one code, not a safe-integer bound of zod.
    expect(amountErrors(2 ** 53)).toEqual(tooHigh);
    expect(amountErrors(1e20)).toEqual(tooHigh);
    expect(amountErrors(ORDER_LIMITS.amountCents.max)).toEqual([]);
  });

  it("keeps the other codes: not_integer once, too_small, invalid_type, required", () => {
    expect(amountErrors(12.5)).toEqual([
      { field: "amount_cents", code: "not_integer", message: "must be a whole number" },
    ]);
    expect(amountErrors(1.5e11 + 0.5)).toEqual([
      { field: "amount_cents", code: "not_integer", message: "must be a whole number" },
    ]);
    expect(amountErrors(0)).toEqual([
      { field: "amount_cents", code: "too_small", message: "must be at least 1" },
    ]);
    expect(amountErrors("100")).toEqual([
      { field: "amount_cents", code: "invalid_type", message: "must be number, got string" },
    ]);
    expect(amountErrors(undefined)).toEqual([
      { field: "amount_cents", code: "required", message: "is required" },
    ]);
  });

  it("is an integer from 1 to the maximum in the JSON Schema", () => {
    const json = JSON.stringify(z.toJSONSchema(InvoiceSchema, { io: "input" }));
    expect(json).toContain('"amount_cents":{"type":"integer","minimum":1,"maximum":100000000000,');
  });
});

describe("the zod-issue mapping knows no order fields", () => {
  it("maps a plain maximum at the path of an invoice amount as too_large", () => {
    const schema = z.object({ invoices: z.array(z.object({ amount_cents: z.int().max(10) })) });
    const input = { invoices: [{ amount_cents: 11 }] };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(zodIssuesToFieldErrors(result.error?.issues ?? [], input)).toEqual([
      { field: "invoices[0].amount_cents", code: "too_large", message: "must be at most 10" },
    ]);
  });
});
