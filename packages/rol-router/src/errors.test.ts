import { describe, expect, it } from "vitest";
import { isRolRouterError, RolRouterError } from "./errors.js";

describe("RolRouterError", () => {
  it("carries a code, a message and the field errors", () => {
    const errors = [{ field: "woonplaats", code: "required", message: "is required" }];
    const error = new RolRouterError("invalid_request", "Invalid.", errors);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message, error.errors, isRolRouterError(error)]).toEqual([
      "RolRouterError",
      "invalid_request",
      "Invalid.",
      errors,
      true,
    ]);
  });

  it("implements the shared error shape: the Symbol.for('incasso.error') brand and a status for a host", () => {
    const error = new RolRouterError("invalid_request", "Invalid.");
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("incasso.error")]).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect([
      error.status,
      new RolRouterError("invalid_option", "x").status,
      new RolRouterError("invalid_dataset", "x").status,
    ]).toEqual([422, undefined, undefined]);
  });
});
