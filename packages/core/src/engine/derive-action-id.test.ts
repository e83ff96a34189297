import { describe, expect, it } from "vitest";
import { deriveActionId } from "./derive-action-id.js";

describe("deriveActionId", () => {
  const base = {
    organisationId: "org_0123456789abcdef",
    mode: "live" as const,
    idempotencyKey: "hold-17",
    fingerprint: "ab".repeat(32),
  };

  it("is an act_ id, the same for the same request, and matches an independent SHA-256", async () => {
    const id = deriveActionId(base);
    expect(id).toMatch(/^act_[0-9a-f]{16}$/);
    expect(deriveActionId({ ...base })).toBe(id);
    const bytes = new TextEncoder().encode(
      `incasso-action-id\u0000${base.organisationId}\u0000live\u0000${base.idempotencyKey}\u0000${base.fingerprint}`,
    );
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", bytes)).toString("hex");
    expect(id).toBe(`act_${digest.slice(0, 16)}`);
  });

  it("differs when the organisation, the key's mode, the key or the content differs", () => {
    const id = deriveActionId(base);
    expect(deriveActionId({ ...base, organisationId: "org_fedcba9876543210" })).not.toBe(id);
    expect(deriveActionId({ ...base, mode: "test" })).not.toBe(id);
    expect(deriveActionId({ ...base, idempotencyKey: "hold-18" })).not.toBe(id);
    expect(deriveActionId({ ...base, fingerprint: "cd".repeat(32) })).not.toBe(id);
  });
});
