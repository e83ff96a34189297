import * as signing from "@incasso/webhook-signing";
import { describe, expect, it } from "vitest";
import * as webhooks from "./webhooks.js";

describe("@incasso/client/webhooks", () => {
  it("re-exports every helper of @incasso/webhook-signing", () => {
    expect(Object.keys(webhooks).sort()).toEqual(Object.keys(signing).sort());
    expect(webhooks.verifyWebhook).toBe(signing.verifyWebhook);
  });

  it("verifies a signed delivery and refuses a changed one", () => {
    const body = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "case.updated",
      created_at: "2026-11-25T10:00:00Z",
      data: { order_id: "ord_0123456789abcdef", case_number: "2026-0001", reference: null, case_event: null },
    });
    const headers = webhooks.signWebhook({ body, secret: "s3cret", eventType: "case.updated" });
    const event = webhooks.constructWebhookEvent(body, headers, "s3cret");
    expect([event.id, event.type, event.data.case_number]).toEqual(["evt_1", "case.updated", "2026-0001"]);
    let error: unknown;
    try {
      webhooks.verifyWebhook(body.replace("2026-0001", "2026-0002"), headers, "s3cret");
    } catch (e) {
      error = e;
    }
    expect(webhooks.isWebhookVerificationError(error)).toBe(true);
    expect((error as { code: string }).code).toBe("signature_mismatch");
  });
});
