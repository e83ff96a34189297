import { describe, expect, it } from "vitest";
import { isWebhookError } from "./errors.js";
import {
  checkWebhookSecret,
  checkWebhookUrl,
  generateWebhookSecret,
  webhookSecretHint,
} from "./webhook-endpoint-settings.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isWebhookError(error) ? error.code : String(error);
  }
}

describe("checkWebhookUrl", () => {
  it("accepts absolute http(s) URLs and returns them normalised", () => {
    expect(checkWebhookUrl("https://Client.Example/hooks/incasso?x=1")).toBe(
      "https://client.example/hooks/incasso?x=1",
    );
    expect(checkWebhookUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/");
  });

  it.each([
    "client.example/hook",
    "ftp://client.example/hook",
    "https://user:pw@client.example/hook",
    "https://client.example/hook#frag",
    `https://client.example/${"a".repeat(2048)}`,
    "file:///etc/passwd",
  ])("refuses %s with invalid_webhook_url", (url) => {
    expect(codeOf(() => checkWebhookUrl(url))).toBe("invalid_webhook_url");
  });
});

describe("secrets", () => {
  it("generates 256-bit whsec_ secrets that pass the check and differ each time", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(checkWebhookSecret(a)).toBe(a);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it.each(["short", "has a space in it here", "x".repeat(257), "tab\tinside-the-secret"])(
    "refuses %j with invalid_webhook_secret",
    (secret) => {
      expect(codeOf(() => checkWebhookSecret(secret))).toBe("invalid_webhook_secret");
    },
  );

  it("shows only a hint", () => {
    expect(webhookSecretHint("whsec_abcdefghijklmnopqrstuvwxyz")).toBe("whsec_…wxyz");
  });
});
