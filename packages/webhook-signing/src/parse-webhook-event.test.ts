import { describe, expect, it } from "vitest";
import { parseWebhookEvent } from "./parse-webhook-event.js";

const EVENT = {
  id: "evt_9f2c4e1a7b3d5c80",
  object: "event",
  type: "payment.received",
  created_at: "2026-11-21T10:00:00Z",
  data: {
    order_id: "ord_0123456789abcdef",
    case_number: "2026-000123",
    reference: "Één",
    case_event: "case_payments",
  },
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("parseWebhookEvent", () => {
  it("parses the spec's event object from text and from UTF-8 bytes", () => {
    expect(parseWebhookEvent(JSON.stringify(EVENT))).toEqual(EVENT);
    expect(parseWebhookEvent(new TextEncoder().encode(JSON.stringify(EVENT)))).toEqual(EVENT);
  });

  it("keeps unknown event types and unknown fields (spec, Versioning 2 and 3)", () => {
    const future = {
      ...EVENT,
      type: "case.reopened",
      livemode: true,
      data: { ...EVENT.data, amount_cents: 125000 },
    };
    expect(parseWebhookEvent(JSON.stringify(future))).toEqual(future);
  });

  it("gives absent data fields, or an absent data object, as null", () => {
    expect(parseWebhookEvent(JSON.stringify({ ...EVENT, type: "ping", data: {} })).data).toEqual({
      order_id: null,
      case_number: null,
      reference: null,
      case_event: null,
    });
    const { data: _, ...noData } = EVENT;
    expect(parseWebhookEvent(JSON.stringify(noData)).data).toEqual({
      order_id: null,
      case_number: null,
      reference: null,
      case_event: null,
    });
  });

  it("accepts date-times with offsets and fractions", () => {
    for (const created_at of [
      "2026-11-21T11:00:00+01:00",
      "2026-11-21T10:00:00.123456Z",
      "2026-11-21t10:00:00z",
    ]) {
      expect(parseWebhookEvent(JSON.stringify({ ...EVENT, created_at })).created_at).toBe(created_at);
    }
  });

  it.each([
    ["not JSON", "{"],
    ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ["an array", "[]"],
    ["null", "null"],
    ["an id without evt_", JSON.stringify({ ...EVENT, id: "ord_1" })],
    ["a numeric id", JSON.stringify({ ...EVENT, id: 1 })],
    ["object not event", JSON.stringify({ ...EVENT, object: "order" })],
    ["an empty type", JSON.stringify({ ...EVENT, type: "" })],
    ["a missing type", JSON.stringify({ ...EVENT, type: undefined })],
    ["a date without time", JSON.stringify({ ...EVENT, created_at: "2026-11-21" })],
    ["a Unix timestamp as created_at", JSON.stringify({ ...EVENT, created_at: 1795255200 })],
    ["data as an array", JSON.stringify({ ...EVENT, data: [] })],
    ["a numeric case_number", JSON.stringify({ ...EVENT, data: { ...EVENT.data, case_number: 123 } })],
  ])("refuses %s with invalid_payload", (_, body) => {
    expect(codeOf(() => parseWebhookEvent(body))).toBe("invalid_payload");
  });
});
