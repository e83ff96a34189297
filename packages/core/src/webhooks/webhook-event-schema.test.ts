import { describe, expect, it } from "vitest";
import { isWebhookError } from "./errors.js";
import { CASE_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "./event-types.js";
import { buildWebhookEvent, WebhookEventSchema } from "./webhook-event-schema.js";

const createdAt = new Date("2026-11-21T10:00:00.000Z");
const data = {
  order_id: "ord_0123456789abcdef",
  case_number: "2026-000123",
  reference: "INV-42",
  case_event: "case_payments",
};

describe("buildWebhookEvent", () => {
  it("builds the spec's body with the fields in the spec's order", () => {
    const event = buildWebhookEvent({
      id: "evt_0123456789abcdef",
      type: "payment.received",
      createdAt,
      data,
    });
    expect(JSON.stringify(event)).toBe(
      '{"id":"evt_0123456789abcdef","object":"event","type":"payment.received","created_at":"2026-11-21T10:00:00.000Z","data":{"order_id":"ord_0123456789abcdef","case_number":"2026-000123","reference":"INV-42","case_event":"case_payments"}}',
    );
  });

  it("writes absent data fields as null and drops fields the spec does not list", () => {
    const event = buildWebhookEvent({
      id: "evt_0123456789abcdef",
      type: "ping",
      createdAt,
      data: { order_id: null, extra: "x" } as never,
    });
    expect(event.data).toEqual({ order_id: null, case_number: null, reference: null, case_event: null });
  });

  it.each([
    ["an id without evt_", { id: "ord_0123456789abcdef" }, "id"],
    ["an unknown type", { type: "case.reopened" }, "type"],
    ["an order id without ord_", { data: { ...data, order_id: "123" } }, "data.order_id"],
    ["an empty case number", { data: { ...data, case_number: "" } }, "data.case_number"],
  ])("refuses %s with invalid_webhook_event naming the field", (_label, change, field) => {
    try {
      buildWebhookEvent({
        id: "evt_0123456789abcdef",
        type: "case.updated",
        createdAt,
        data,
        ...(change as object),
      });
      expect.unreachable();
    } catch (error) {
      expect(isWebhookError(error) && error.code).toBe("invalid_webhook_event");
      expect((error as Error).message).toContain(`at ${field}:`);
    }
  });
});

describe("event types and schema", () => {
  it("lists the spec's six types; a case system emits all but ping", () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      "payment.received",
      "correspondence.sent",
      "invoice.updated",
      "case.updated",
      "case.closed",
      "ping",
    ]);
    expect(CASE_WEBHOOK_EVENT_TYPES).toEqual(WEBHOOK_EVENT_TYPES.slice(0, 5));
  });

  it("is named WebhookEvent for the OpenAPI document and accepts data fields it does not know (spec, Versioning 3)", () => {
    expect(WebhookEventSchema.meta()?.id).toBe("WebhookEvent");
    const parsed = WebhookEventSchema.safeParse({
      id: "evt_0123456789abcdef",
      object: "event",
      type: "case.closed",
      created_at: "2026-11-21T10:00:00.000Z",
      data: { ...data, future: 1 },
    });
    expect(parsed.success).toBe(true);
  });
});
