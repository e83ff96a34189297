import { describe, expect, it } from "vitest";
import { REDACTED, scrubSecrets, scrubString } from "./secret-scrubber.js";

describe("scrubString", () => {
  it("replaces API keys, webhook secrets, Authorization credentials and OpenAI keys", () => {
    expect(scrubString("key svc_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 and svc_test_abc")).toBe(
      `key ${REDACTED} and ${REDACTED}`,
    );
    expect(scrubString("secret whsec_a1-B2_c3.")).toBe(`secret ${REDACTED}.`);
    expect(scrubString("Authorization: Bearer abc.def, basic dXNlcjpwYXNz")).toBe(
      `Authorization: Bearer ${REDACTED}, basic ${REDACTED}`,
    );
    expect(scrubString("OPENAI sk-proj-0123456789abcdefXYZ")).toBe(`OPENAI ${REDACTED}`);
    expect(scrubString("an order ord_0123456789abcdef of key_0123456789abcdef")).toBe(
      "an order ord_0123456789abcdef of key_0123456789abcdef",
    );
  });

  it("replaces exact secrets of eight characters or more", () => {
    expect(scrubString("token=hunter2hunter2", ["hunter2hunter2", "short"])).toBe(`token=${REDACTED}`);
    expect(scrubString("short stays", ["short"])).toBe("short stays");
  });
});

describe("scrubSecrets", () => {
  it("scrubs strings through objects, arrays and errors, and keeps other values", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const error = new TypeError("failed for svc_test_abc");
    expect(
      scrubSecrets({
        n: 1,
        ok: true,
        none: null,
        at,
        list: ["whsec_x", 2],
        nested: { note: "Bearer t0k" },
        error,
      }),
    ).toEqual({
      n: 1,
      ok: true,
      none: null,
      at,
      list: [REDACTED, 2],
      nested: { note: `Bearer ${REDACTED}` },
      error: {
        type: "TypeError",
        message: `failed for ${REDACTED}`,
        stack: expect.stringContaining(REDACTED),
      },
    });
  });

  it("keeps keys named __proto__, constructor and prototype as keys of the copy, never its prototype", () => {
    // JSON.parse makes `__proto__` an own key, as in a client's metadata (decision orders-reserved-keys).
    const value = JSON.parse('{"__proto__":{"polluted":"svc_test_abc"},"constructor":"c","prototype":"t"}');
    const out = scrubSecrets(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(JSON.stringify(out)).toBe(
      `{"__proto__":{"polluted":"${REDACTED}"},"constructor":"c","prototype":"t"}`,
    );
    expect(out.polluted).toBeUndefined();
  });
});
