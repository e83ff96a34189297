import {
  CoreError,
  IncassoError,
  OrderEngineError,
  OrdersError,
  StoreUnavailableError,
  WebhookError,
} from "@incasso/core";
import { RolRouterError } from "@incasso/rol-router";
import { WikError } from "@incasso/wik";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error.js";
import { toApiError } from "./to-api-error.js";

/** The members of an ApiError that reach the client. */
function wire(error: unknown) {
  expect(error).toBeInstanceOf(ApiError);
  const e = error as ApiError;
  return { status: e.status, code: e.code, detail: e.detail, errors: e.errors, headers: e.headers };
}

describe("toApiError, the one mapping of thrown values", () => {
  it("passes an ApiError and an unknown error through unchanged", () => {
    const api = new ApiError({ status: 404, code: "not_found", detail: "No." });
    const bug = new TypeError("x is undefined");
    expect(toApiError(api)).toBe(api);
    expect(toApiError(bug)).toBe(bug);
    expect(toApiError("text")).toBe("text");
  });

  it("maps a CoreError by its code, a 422 about a field as validation_error", () => {
    expect(wire(toApiError(new CoreError("creditor_exists", "Exists.")))).toEqual({
      status: 409,
      code: "creditor_exists",
      detail: "Exists.",
      errors: undefined,
      headers: {},
    });
    expect(wire(toApiError(new CoreError("invalid_cursor", "Bad cursor.", { field: "cursor" })))).toEqual({
      status: 422,
      code: "validation_error",
      detail: "The request has 1 invalid field.",
      errors: [{ field: "cursor", code: "invalid_cursor", message: "Bad cursor." }],
      headers: {},
    });
  });

  it("maps an OrderEngineError with its field failures and Retry-After", () => {
    const errors = [{ field: "creditor.reference", code: "unknown_creditor", message: "not found" }];
    expect(wire(toApiError(new OrderEngineError("unknown_creditor", "Unknown.", { errors })))).toEqual({
      status: 422,
      code: "unknown_creditor",
      detail: "Unknown.",
      errors,
      headers: {},
    });
    expect(
      wire(
        toApiError(new OrderEngineError("attachment_check_unavailable", "Busy.", { retryAfterSeconds: 7 })),
      ),
    ).toEqual({
      status: 503,
      code: "attachment_check_unavailable",
      detail: "Busy.",
      errors: undefined,
      headers: { "Retry-After": "7" },
    });
  });

  it("maps the WIK calculator's errors: a field limit 422, an unreadable request 400, an option error unchanged", () => {
    expect(wire(toApiError(new WikError("date_before_rate_table", "Too early.", "due_date")))).toEqual({
      status: 422,
      code: "validation_error",
      detail: "The request has 1 invalid field.",
      errors: [{ field: "due_date", code: "date_before_rate_table", message: "Too early." }],
      headers: {},
    });
    expect(wire(toApiError(new WikError("invalid_request", "Not an object.")))).toEqual({
      status: 400,
      code: "invalid_request",
      detail: "Not an object.",
      errors: undefined,
      headers: {},
    });
    const option = new WikError("invalid_option", "Bad option.", "today");
    expect(toApiError(option)).toBe(option);
  });

  it("maps the court lookup's invalid_request to 422 with its errors[]", () => {
    const errors = [{ field: "woonplaats", code: "required", message: "is required" }];
    expect(wire(toApiError(new RolRouterError("invalid_request", "Invalid.", errors)))).toEqual({
      status: 422,
      code: "validation_error",
      detail: "The request has 1 invalid field.",
      errors,
      headers: {},
    });
  });

  it("recognises an error of another copy of a package by its brand, not its class", () => {
    // What a second copy of @incasso/core throws: the same members, another class.
    const foreign = Object.assign(new Error("Exists."), { code: "creditor_exists", field: undefined });
    Object.defineProperty(foreign, Symbol.for("incasso.error"), { value: true });
    expect(wire(toApiError(foreign))).toMatchObject({ status: 409, code: "creditor_exists" });
  });

  it("answers an upstream_error caused by an unreachable store with 503 service_unavailable", () => {
    const gone = new StoreUnavailableError("Gone.", { retryAfterSeconds: 4 });
    const upstream = new OrderEngineError("upstream_error", "Case system failed.", {
      cause: new Error("x", { cause: gone }),
    });
    expect(wire(toApiError(upstream))).toEqual({
      status: 503,
      code: "service_unavailable",
      detail:
        "The service cannot reach its database right now. Retry in 4 s; send a POST again with the same Idempotency-Key.",
      errors: undefined,
      headers: { "Retry-After": "4" },
    });
    expect(wire(toApiError(new OrderEngineError("upstream_error", "Case system failed.")))).toEqual({
      status: 502,
      code: "upstream_error",
      detail: "Case system failed.",
      errors: undefined,
      headers: {},
    });
  });

  it("returns a branded error without an API status unchanged, so it is a 500", () => {
    const unmapped = [
      new IncassoError("case_not_found", "No case."),
      new WebhookError("webhook_event_not_found", "No event."),
      new OrdersError("invalid_argument", "Bad."),
      new IncassoError("no_such_code", "Unknown."),
      new RolRouterError("invalid_dataset", "Inconsistent."),
    ];
    for (const error of unmapped) expect(toApiError(error)).toBe(error);
  });

  it("maps any error with the brand by the one rule, headers carried", () => {
    const foreign = Object.assign(new Error("Wait."), {
      code: "rate_limited",
      headers: { "Retry-After": "2" },
    });
    Object.defineProperty(foreign, Symbol.for("incasso.error"), { value: true });
    expect(wire(toApiError(foreign))).toEqual({
      status: 429,
      code: "rate_limited",
      detail: "Wait.",
      errors: undefined,
      headers: { "Retry-After": "2" },
    });
  });
});
