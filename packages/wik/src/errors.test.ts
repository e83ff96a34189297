import { describe, expect, it } from "vitest";
import { isWikError, WIK_ERROR_CODES, WikError } from "./errors.js";

describe("WikError", () => {
  it("carries a stable code, a field and a name", () => {
    const error = new WikError("invalid_amount", "bad", "amount_cents");
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.field, error.message]).toEqual([
      "WikError",
      "invalid_amount",
      "amount_cents",
      "bad",
    ]);
  });

  it("isWikError recognises errors by name and code, not by class", () => {
    expect(isWikError(new WikError("invalid_date", "x"))).toBe(true);
    expect(isWikError({ name: "WikError", code: "invalid_date", message: "from another copy" })).toBe(true);
    expect(isWikError({ name: "WikError", code: "something_else" })).toBe(false);
    expect(isWikError(new Error("x"))).toBe(false);
    expect(isWikError(null)).toBe(false);
    expect(isWikError("invalid_amount")).toBe(false);
  });

  it("implements the shared error shape: the Symbol.for('incasso.error') brand and a status for a host", () => {
    const error = new WikError("invalid_amount", "bad", "amount_cents");
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("incasso.error")]).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect([
      error.status,
      new WikError("invalid_request", "x", "due_date").status,
      new WikError("invalid_option", "x", "today").status,
      new WikError("invalid_request", "x").status,
      new WikError("date_before_rate_table", "x").status,
    ]).toEqual([422, 422, undefined, undefined, undefined]);
  });

  it("lists every code", () => {
    expect(WIK_ERROR_CODES).toEqual([
      "invalid_request",
      "invalid_amount",
      "invalid_debtor_type",
      "invalid_date",
      "invalid_option",
      "date_before_rate_table",
      "beyond_rate_table",
      "result_out_of_range",
    ]);
  });
});
