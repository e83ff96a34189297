import { describe, expect, it } from "vitest";
import { isWebhookVerificationError, WebhookArgumentError, WebhookVerificationError } from "./errors.js";

describe("errors", () => {
  it("WebhookVerificationError carries code, status 400, header and cause", () => {
    const cause = new Error("inner");
    const error = new WebhookVerificationError("malformed_header", "bad", {
      header: "x-service-timestamp",
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect({ ...error, message: error.message, cause: error.cause }).toEqual({
      name: "WebhookVerificationError",
      code: "malformed_header",
      status: 400,
      header: "x-service-timestamp",
      message: "bad",
      cause,
    });
  });

  it("WebhookArgumentError is a TypeError with code invalid_argument", () => {
    const error = new WebhookArgumentError("nope");
    expect(error).toBeInstanceOf(TypeError);
    expect([error.name, error.code, error.message]).toEqual([
      "WebhookArgumentError",
      "invalid_argument",
      "nope",
    ]);
  });

  it("isWebhookVerificationError recognises by name and code, also for a copy from another install", () => {
    expect(isWebhookVerificationError(new WebhookVerificationError("signature_mismatch", "x"))).toBe(true);
    expect(isWebhookVerificationError({ name: "WebhookVerificationError", code: "signature_mismatch" })).toBe(
      true,
    );
    expect(isWebhookVerificationError(new WebhookArgumentError("x"))).toBe(false);
    expect(isWebhookVerificationError(new Error("x"))).toBe(false);
    expect(isWebhookVerificationError(null)).toBe(false);
    expect(isWebhookVerificationError("WebhookVerificationError")).toBe(false);
  });
});
