import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { computeWebhookSignature } from "./compute-webhook-signature.js";

describe("computeWebhookSignature", () => {
  it("is the lower-case hex HMAC-SHA256 of timestamp.body", () => {
    const expected = createHmac("sha256", "k").update("1795255200.{}").digest("hex");
    expect(computeWebhookSignature(1795255200, "{}", "k")).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs timestamp 0 as the text 0", () => {
    expect(computeWebhookSignature(0, "b", "k")).toBe(createHmac("sha256", "k").update("0.b").digest("hex"));
  });

  it.each([
    ["empty secret", () => computeWebhookSignature(1, "b", "")],
    ["non-string secret", () => computeWebhookSignature(1, "b", 5 as unknown as string)],
    ["non-integer timestamp", () => computeWebhookSignature(Number.NaN, "b", "k")],
    ["object body", () => computeWebhookSignature(1, {} as unknown as string, "k")],
  ])("throws invalid_argument for %s", (_, fn) => {
    expect(fn).toThrow(expect.objectContaining({ code: "invalid_argument", name: "WebhookArgumentError" }));
  });
});
