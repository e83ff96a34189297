import { IncassoError, isIncassoError } from "@incasso/core";
import { describe, expect, it } from "vitest";
import { CaseSystemError, isCaseSystemError } from "./errors.js";

describe("CaseSystemError", () => {
  it("is an IncassoError of @incasso/core with its own name, code and guard", () => {
    const error = new CaseSystemError("case_not_found", "No case 2026-000123 for this organisation.");
    expect([
      error instanceof IncassoError,
      isIncassoError(error),
      isCaseSystemError(error),
      error.name,
      error.code,
      error.message,
      error.errors,
      error.headers,
    ]).toEqual([
      true,
      true,
      true,
      "CaseSystemError",
      "case_not_found",
      "No case 2026-000123 for this organisation.",
      [],
      {},
    ]);
    expect(isCaseSystemError(new IncassoError("case_not_found", "x"))).toBe(false);
  });
});
