import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "./api-key-format.js";
import { parseBearerToken } from "./bearer.js";

const key = `svc_live_${"Ab1".repeat(10)}Zz`;

describe("parseBearerToken", () => {
  it("reads exactly one Bearer credential, scheme case-insensitive (RFC 9110 §11.1)", () => {
    expect(parseBearerToken(`Bearer ${key}`)).toBe(key);
    expect(parseBearerToken(`bearer ${key}`)).toBe(key);
    expect(parseBearerToken(`BEARER ${key}`)).toBe(key);
  });

  it("refuses absent, other schemes, extra spaces, lists, control and non-ASCII characters, overlong values", () => {
    for (const header of [
      null,
      undefined,
      "",
      "Bearer",
      "Bearer ",
      `Basic ${key}`,
      key,
      `Bearer  ${key}`,
      `Bearer ${key} `,
      ` Bearer ${key}`,
      `Bearer ${key}, Bearer ${key}`,
      `Bearer ${key}\r\nX-Evil: 1`,
      `Bearer ${key}\u0000`,
      `Bearer ${key.slice(0, -1)}é`,
      `Bearer ${key}${"a".repeat(300)}`,
      `Bearer svc_live_${"A".repeat(10_000)}`,
    ]) {
      expect(parseBearerToken(header), JSON.stringify(header)).toBeUndefined();
    }
  });

  it("accepts every generated key and nothing that is not one", () => {
    fc.assert(
      fc.property(fc.constantFrom("live" as const, "test" as const), (mode) => {
        const k = generateApiKey(mode);
        expect(parseBearerToken(`Bearer ${k}`)).toBe(k);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        const token = parseBearerToken(s);
        if (token !== undefined) expect(s).toBe(s.slice(0, 7) + token);
      }),
    );
  });
});
