import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

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
});
