import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiKeyHint, generateApiKey, hashApiKey, isWellFormedApiKey, keyModeOf } from "./api-key-format.js";

describe("API key format", () => {
  it("has the spec's prefix and 32 base62 characters (≈190 bits)", () => {
    for (const mode of ["live", "test"] as const) {
      const key = generateApiKey(mode);
      expect(key).toMatch(new RegExp(`^svc_${mode}_[0-9A-Za-z]{32}$`));
      expect(key.length).toBe(41);
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(keyModeOf(key)).toBe(mode);
    }
    expect(32 * Math.log2(62)).toBeGreaterThan(160);
  });

  it("draws every base62 character, none outside it, without a visible bias", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const c of generateApiKey("test").slice(9)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    // 64,000 draws: each character expects ≈1032; a biased modulo would push some far off.
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    for (const n of counts.values()) expect(n).toBeLessThan(1300);
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 5000 }, () => generateApiKey("live")));
    expect(keys.size).toBe(5000);
  });

  it("hashes with SHA-256, hex", () => {
    const key = `svc_test_${"a".repeat(32)}`;
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps the hashes stored before it left node:crypto (values pinned from createHash)", () => {
    // Stored key hashes must still match after the move to a runtime-neutral SHA-256 (issue 15).
    expect(hashApiKey("svc_test_00000000000000000000000000000000")).toBe(
      "94aeda59c509f1320078e37371994a8cc4d4a3136688555e1a7ccaf274c034fa",
    );
    // A text outside ASCII is hashed as its UTF-8 bytes, as createHash(...).update(key, "utf8") did.
    expect(hashApiKey("svc_live_Zz9€")).toBe(
      "fa39fe10a5851ec63ef42e29e638006e635581b74a7d42a5aa2c14c45c321ea6",
    );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(hashApiKey(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
    );
  });

  it("shows only prefix and last four characters as a hint", () => {
    expect(apiKeyHint(`svc_live_${"a".repeat(28)}WXYZ`)).toBe("svc_live_…WXYZ");
  });

  it("refuses anything that is not exactly a key", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const ok = /^svc_(live|test)_[0-9A-Za-z]{32}$/.test(s);
        expect(isWellFormedApiKey(s)).toBe(ok);
        expect(keyModeOf(s)).toBe(ok ? (s.startsWith("svc_live_") ? "live" : "test") : undefined);
      }),
    );
    for (const bad of [
      `svc_live_${"a".repeat(31)}`,
      `svc_live_${"a".repeat(33)}`,
      `svc_prod_${"a".repeat(32)}`,
      `svc_live_${"a".repeat(31)}-`,
    ]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });
});
