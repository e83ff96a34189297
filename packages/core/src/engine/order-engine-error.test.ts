import { describe, expect, it } from "vitest";
import { isOrderEngineError, ORDER_ENGINE_ERROR_CODES, OrderEngineError } from "./order-engine-error.js";

describe("OrderEngineError", () => {
  it("carries a stable code, the field errors and a Retry-After hint, recognised without instanceof", () => {
    const e = new OrderEngineError("attachment_check_unavailable", "busy", { retryAfterSeconds: 7 });
    expect(e).toMatchObject({
      code: "attachment_check_unavailable",
      errors: [],
      retryAfterSeconds: 7,
      message: "busy",
    });
    expect(isOrderEngineError(e)).toBe(true);
    expect(isOrderEngineError({ ...e })).toBe(true);
    expect(isOrderEngineError(new Error("x"))).toBe(false);
    expect(new OrderEngineError("not_found", "x").retryAfterSeconds).toBeNull();
  });

  it("lists the codes the server maps", () => {
    expect(ORDER_ENGINE_ERROR_CODES).toEqual([
      "validation_error",
      "amount_too_high",
      "wik_letter_required",
      "invalid_attachment",
      "unknown_creditor",
      "creditor_feature_disabled",
      "not_found",
      "order_has_no_case",
      "test_key_on_live_order",
      "idempotency_conflict",
      "upstream_error",
      "attachment_check_unavailable",
    ]);
  });
});
