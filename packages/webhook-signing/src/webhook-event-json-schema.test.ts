import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { webhookEventJsonSchema } from "./webhook-event-json-schema.js";

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const validate = ajv.compile(webhookEventJsonSchema);

const EVENT = {
  id: "evt_1",
  object: "event",
  type: "payment.received",
  created_at: "2026-11-21T10:00:00Z",
  data: {
    order_id: "ord_0123456789abcdef",
    case_number: "2026-1",
    reference: null,
    case_event: "case_payments",
  },
};

describe("webhookEventJsonSchema", () => {
  it("accepts the spec's event, unknown types and unknown fields", () => {
    expect(validate(EVENT)).toBe(true);
    expect(validate({ ...EVENT, type: "case.reopened", extra: 1, data: { ...EVENT.data, more: true } })).toBe(
      true,
    );
  });

  it("refuses what the spec rules out", () => {
    expect(validate({ ...EVENT, id: "ord_1" })).toBe(false);
    expect(validate({ ...EVENT, object: "order" })).toBe(false);
    expect(validate({ ...EVENT, created_at: "yesterday" })).toBe(false);
    expect(validate({ ...EVENT, data: { ...EVENT.data, case_number: 5 } })).toBe(false);
    const { data: _, ...noData } = EVENT;
    expect(validate(noData)).toBe(false);
    const { case_event: __, ...dataWithoutCaseEvent } = EVENT.data;
    expect(validate({ ...EVENT, data: dataWithoutCaseEvent })).toBe(false);
  });

  it("is titled WebhookEvent for the OpenAPI document", () => {
    expect(webhookEventJsonSchema.title).toBe("WebhookEvent");
  });
});
