import { describe, expect, it } from "vitest";
import { OrderEngineError } from "./engine/order-engine-error.js";
import { CoreError, isCoreError } from "./errors.js";
import { INCASSO_ERROR_BRAND, IncassoError, isIncassoError } from "./incasso-error.js";
import { isOrdersError, OrdersError } from "./orders/errors.js";
import { isStoreUnavailable, StoreUnavailableError } from "./store-unavailable.js";
import { isWebhookError, WebhookError } from "./webhooks/errors.js";

describe("IncassoError, the one error type", () => {
  it("carries code, message, field, errors, headers and cause", () => {
    const cause = new Error("duplicate key");
    const errors = [{ field: "amount_cents", code: "too_small", message: "must be at least 1" }];
    const error = new IncassoError("validation_error", "Refused.", {
      field: "amount_cents",
      errors,
      headers: { "Retry-After": "3" },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect({
      name: error.name,
      code: error.code,
      message: error.message,
      field: error.field,
      errors: error.errors,
      headers: error.headers,
      cause: error.cause,
    }).toEqual({
      name: "IncassoError",
      code: "validation_error",
      message: "Refused.",
      field: "amount_cents",
      errors,
      headers: { "Retry-After": "3" },
      cause,
    });
    const bare = new IncassoError("not_found", "No.");
    expect([bare.field, bare.errors, bare.headers, "cause" in bare]).toEqual([undefined, [], {}, false]);
  });

  it("brands with Symbol.for('incasso.error') on the prototype, not on the instance", () => {
    const error = new IncassoError("not_found", "No.");
    expect(INCASSO_ERROR_BRAND).toBe(Symbol.for("incasso.error"));
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("incasso.error")]).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
  });

  it("is the type of every error of the package, whose own guards keep working", () => {
    const errors = [
      new CoreError("creditor_exists", "Exists.", { field: "reference" }),
      new OrdersError("invalid_argument", "Bad."),
      new OrderEngineError("upstream_error", "Down."),
      new WebhookError("webhook_event_not_found", "No event."),
      new StoreUnavailableError("Gone."),
    ];
    expect(errors.map((e) => [e instanceof IncassoError, isIncassoError(e), e.name, e.code])).toEqual([
      [true, true, "CoreError", "creditor_exists"],
      [true, true, "OrdersError", "invalid_argument"],
      [true, true, "OrderEngineError", "upstream_error"],
      [true, true, "WebhookError", "webhook_event_not_found"],
      [true, true, "StoreUnavailableError", "store_unavailable"],
    ]);
    expect([
      isCoreError(errors[0]),
      isOrdersError(errors[1]),
      isWebhookError(errors[3]),
      isStoreUnavailable(errors[4]),
      isCoreError(errors[1]),
    ]).toEqual([true, true, true, true, false]);
    expect((errors[0] as CoreError).field).toBe("reference");
  });

  it("puts Retry-After in the headers of an engine error with retryAfterSeconds and of a store outage", () => {
    const busy = new OrderEngineError("attachment_check_unavailable", "Busy.", { retryAfterSeconds: 7 });
    expect([busy.retryAfterSeconds, busy.headers]).toEqual([7, { "Retry-After": "7" }]);
    const plain = new OrderEngineError("not_found", "No.");
    expect([plain.retryAfterSeconds, plain.headers, plain.errors]).toEqual([null, {}, []]);
    const gone = new StoreUnavailableError("Gone.", { retryAfterSeconds: 9 });
    expect([gone.retryAfterSeconds, gone.headers]).toEqual([9, { "Retry-After": "9" }]);
    expect(new StoreUnavailableError("Gone.").headers).toEqual({ "Retry-After": "5" });
  });

  it("recognises the brand on any object with a string code, and no per-class brand alone", () => {
    const foreign = Object.assign(new Error("x"), { code: "not_found" });
    Object.defineProperty(foreign, Symbol.for("incasso.error"), { value: true });
    const classBrandOnly = Object.assign(new Error("x"), {
      code: "creditor_exists",
      isIncassoCoreError: true,
    });
    const noCode = Object.assign(new Error("x"), { isIncassoCoreError: true });
    const lookalike = Object.assign(new Error("x"), { code: "not_found", name: "CoreError" });
    expect([foreign, classBrandOnly, noCode, lookalike, null, "not_found", 42].map(isIncassoError)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
