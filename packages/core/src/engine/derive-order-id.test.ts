import { describe, expect, it } from "vitest";
import { isOrderId } from "../orders/order-id.js";
import { deriveOrderId } from "./derive-order-id.js";

describe("deriveOrderId", () => {
  const base = {
    organisationId: "org_0123456789abcdef",
    mode: "live" as const,
    idempotencyKey: "order-17",
    fingerprint: "ab".repeat(32),
  };

  it("is an order id, the same for the same request, and matches an independent SHA-256", async () => {
    const id = deriveOrderId(base);
    expect(isOrderId(id)).toBe(true);
    expect(deriveOrderId({ ...base })).toBe(id);
    const bytes = new TextEncoder().encode(
      `incasso-order-id\u0000${base.organisationId}\u0000live\u0000${base.idempotencyKey}\u0000${base.fingerprint}`,
    );
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
    expect(id).toBe(`ord_${digest.slice(0, 16)}`);
  });

  it("keeps the ids derived before it left node:crypto (value pinned from createHash)", () => {
    // A retry after the upgrade must find the order and case made before it (decision
    // orders-engine-order-ids), so the derived id may never change.
    expect(
      deriveOrderId({
        organisationId: "org_0123456789abcdef",
        mode: "live",
        idempotencyKey: "order-17",
        fingerprint: "9f2c",
      }),
    ).toBe("ord_d63c7c61edb2de65");
  });

  it("differs when the organisation, the key's mode, the key or the content differs", () => {
    const id = deriveOrderId(base);
    expect(deriveOrderId({ ...base, organisationId: "org_fedcba9876543210" })).not.toBe(id);
    expect(deriveOrderId({ ...base, mode: "test" })).not.toBe(id);
    expect(deriveOrderId({ ...base, idempotencyKey: "order-18" })).not.toBe(id);
    expect(deriveOrderId({ ...base, fingerprint: "cd".repeat(32) })).not.toBe(id);
  });
});
