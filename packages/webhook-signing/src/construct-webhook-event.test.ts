import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { constructWebhookEvent } from "./construct-webhook-event.js";
import type { WebhookEvent } from "./webhook-event.js";

const SECRET = "whsec_c0nstruct";
const T = 1795255200;
const EVENT = {
  id: "evt_1",
  object: "event",
  type: "case.closed",
  created_at: "2026-11-21T10:00:00Z",
  data: { order_id: "ord_0123456789abcdef", case_number: "2026-1", reference: null, case_event: null },
};

function deliver(body: string, eventHeader?: string) {
  const headers: Record<string, string> = {
    "x-service-signature": createHmac("sha256", SECRET).update(`${T}.${body}`).digest("hex"),
    "x-service-timestamp": String(T),
  };
  if (eventHeader !== undefined) headers["x-service-event"] = eventHeader;
  return headers;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("constructWebhookEvent", () => {
  it("verifies and returns the typed event", () => {
    const body = JSON.stringify(EVENT, null, 2);
    const event: WebhookEvent = constructWebhookEvent(body, deliver(body, "case.closed"), SECRET, { now: T });
    expect(event).toEqual(EVENT);
  });

  it("works without X-Service-Event (it is not signed, the body's type governs)", () => {
    const body = JSON.stringify(EVENT);
    expect(constructWebhookEvent(Buffer.from(body), deliver(body), SECRET, { now: T }).type).toBe(
      "case.closed",
    );
  });

  it("rejects a header type that disagrees with the signed body with event_type_mismatch", () => {
    const body = JSON.stringify(EVENT);
    expect(
      codeOf(() => constructWebhookEvent(body, deliver(body, "payment.received"), SECRET, { now: T })),
    ).toBe("event_type_mismatch");
  });

  it("verifies before parsing: a forged non-JSON body is a signature_mismatch, not a parse error", () => {
    const headers = deliver(JSON.stringify(EVENT));
    expect(codeOf(() => constructWebhookEvent("{not json", headers, SECRET, { now: T }))).toBe(
      "signature_mismatch",
    );
  });

  it("rejects an authentic body that is not an event with invalid_payload", () => {
    const body = JSON.stringify({ hello: "world" });
    expect(codeOf(() => constructWebhookEvent(body, deliver(body), SECRET, { now: T }))).toBe(
      "invalid_payload",
    );
  });

  it("passes the tolerance options through", () => {
    const body = JSON.stringify(EVENT);
    expect(codeOf(() => constructWebhookEvent(body, deliver(body), SECRET, { now: T + 301 }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(
      constructWebhookEvent(body, deliver(body), SECRET, { now: T + 301, toleranceSeconds: 400 }).id,
    ).toBe("evt_1");
  });
});
