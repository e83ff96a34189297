import { describe, expect, it } from "vitest";
import { isKnownWebhookEventType, WEBHOOK_EVENT_TYPES } from "./webhook-event.js";

describe("event types", () => {
  it("lists exactly the spec's six types in the spec's order", () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      "payment.received",
      "correspondence.sent",
      "invoice.updated",
      "case.updated",
      "case.closed",
      "ping",
    ]);
  });

  it("isKnownWebhookEventType tells known from unknown", () => {
    expect(WEBHOOK_EVENT_TYPES.map(isKnownWebhookEventType)).toEqual([true, true, true, true, true, true]);
    expect(isKnownWebhookEventType("case.reopened")).toBe(false);
    expect(isKnownWebhookEventType("Case.Closed")).toBe(false);
  });
});
