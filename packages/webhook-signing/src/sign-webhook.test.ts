import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signWebhook } from "./sign-webhook.js";
import { verifyWebhook } from "./verify-webhook.js";

const T = 1795255200;
const EVENT = {
  id: "evt_1",
  object: "event",
  type: "payment.received",
  created_at: "2026-11-21T10:00:00Z",
  data: {
    order_id: "ord_0123456789abcdef",
    case_number: "2026-0001",
    reference: "Één",
    case_event: "case_payments",
  },
};
const BODY = JSON.stringify(EVENT);
const hmac = (s: string) => createHmac("sha256", "s3cret").update(s).digest("hex");

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("signWebhook", () => {
  it("returns the three headers with the spec's names and values", () => {
    expect(signWebhook({ body: BODY, secret: "s3cret", timestamp: T })).toEqual({
      "X-Service-Signature": hmac(`${T}.${BODY}`),
      "X-Service-Timestamp": "1795255200",
      "X-Service-Event": "payment.received",
    });
  });

  it("takes the event type from the body, as text or bytes, unless given", () => {
    expect(signWebhook({ body: Buffer.from(BODY), secret: "s3cret", timestamp: T })["X-Service-Event"]).toBe(
      "payment.received",
    );
    expect(
      signWebhook({ body: "not json", secret: "s3cret", timestamp: T, eventType: "ping" })["X-Service-Event"],
    ).toBe("ping");
  });

  it("defaults the timestamp to the current Unix second, rounded down", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-21T10:00:00.999Z"));
    expect(signWebhook({ body: BODY, secret: "s3cret" })["X-Service-Timestamp"]).toBe("1795255200");
  });

  it("round-trips through verifyWebhook with fetch-style Headers", () => {
    const headers = new Headers({
      "content-type": "application/json",
      ...signWebhook({ body: BODY, secret: "s3cret", timestamp: T }),
    });
    expect(verifyWebhook(BODY, headers, "s3cret", { now: T })).toEqual({
      timestamp: T,
      eventType: "payment.received",
      secretIndex: 0,
    });
  });

  it.each([
    ["an empty secret", { body: BODY, secret: "" }],
    ["a fractional timestamp", { body: BODY, secret: "s", timestamp: 1.5 }],
    ["a negative timestamp", { body: BODY, secret: "s", timestamp: -1 }],
    ["a millisecond-sized unsafe timestamp", { body: BODY, secret: "s", timestamp: 2 ** 53 }],
    ["a body without a type and no eventType", { body: "{}", secret: "s" }],
    ["a body that is not JSON and no eventType", { body: "x", secret: "s" }],
    ["a body that is invalid UTF-8 bytes and no eventType", { body: new Uint8Array([0xff]), secret: "s" }],
    ["an event type with a line break", { body: BODY, secret: "s", eventType: "ping\r\nX-Evil: 1" }],
    ["an empty event type", { body: BODY, secret: "s", eventType: "" }],
    ["an object body", { body: EVENT as unknown as string, secret: "s" }],
  ])("refuses %s with invalid_argument", (_, options) => {
    expect(codeOf(() => signWebhook(options))).toBe("invalid_argument");
  });
});
