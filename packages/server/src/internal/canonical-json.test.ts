import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonParts } from "./canonical-json.js";
import { fingerprintOf } from "./request-fingerprint.js";

describe("canonicalJson", () => {
  it("sorts keys at every level and drops no values", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe("");
    expect(canonicalJson("é")).toBe('"é"');
  });

  it("keeps own keys named __proto__, constructor and prototype (JSON.parse makes them own keys)", () => {
    const body = JSON.parse('{"metadata":{"prototype":"t","__proto__":{"b":1,"a":2},"constructor":"c"}}');
    expect(canonicalJson(body)).toBe(
      '{"metadata":{"__proto__":{"a":2,"b":1},"constructor":"c","prototype":"t"}}',
    );
    expect(canonicalJson(JSON.parse('{"metadata":{"__proto__":"x"}}'))).not.toBe(
      canonicalJson({ metadata: {} }),
    );
  });

  it("is independent of key order and parses back to an equal value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        const reordered = JSON.parse(JSON.stringify(value), (_k, v) =>
          v && typeof v === "object" && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v as Record<string, unknown>).reverse())
            : v,
        );
        expect(canonicalJson(reordered)).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("in pieces joins to the very same text, so the fingerprint of a request does not change", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJsonParts(value).join("")).toBe(canonicalJson(value));
      }),
    );
    expect(canonicalJsonParts([1, undefined, { b: undefined, a: "x" }]).join("")).toBe('[1,null,{"a":"x"}]');
  });

  it("fingerprints a body with large strings, encoded in pieces, as SHA-256 of the whole text", async () => {
    const body = {
      attachments: [{ content_base64: "QUJD".repeat(400_000), filename: "é.pdf" }],
      type: "incasso",
    };
    const expected = createHash("sha256")
      .update(`POST /api/v1/orders\n${canonicalJson(body)}`, "utf8")
      .digest("hex");
    expect(await fingerprintOf("POST", "/api/v1/orders", body)).toBe(expected);
    // All ASCII: written straight into one buffer.
    const ascii = { ...body, attachments: [{ content_base64: "QUJD".repeat(400_000), filename: "e.pdf" }] };
    expect(await fingerprintOf("POST", "/api/v1/orders", ascii)).toBe(
      createHash("sha256")
        .update(`POST /api/v1/orders\n${canonicalJson(ascii)}`, "utf8")
        .digest("hex"),
    );
  });
});
