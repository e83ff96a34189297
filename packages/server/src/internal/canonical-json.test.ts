import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readJsonBody } from "../json-body.js";
import {
  canonicalJson,
  canonicalJsonParts,
  canonicalJsonPieces,
  noteParsedWithoutEscapes,
} from "./canonical-json.js";
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

  it("escapes a string of more than 1 MiB in slices that join to JSON.stringify of the whole", () => {
    const MIB = 1024 * 1024;
    // A surrogate pair across the first slice boundary, a lone one at the second, CR LF and quotes.
    const text = `${"A".repeat(MIB - 1)}\u{1F600}${"B".repeat(MIB - 2)}\ud800\r\n"\\${"C".repeat(10)}`;
    const pieces = [...canonicalJsonPieces({ content_base64: text })];
    expect(pieces.join("")).toBe(canonicalJson({ content_base64: text }));
    expect(pieces.join("")).toBe(`{"content_base64":${JSON.stringify(text)}}`);
    // "{", the key, the quote, three slices, the quote and "}": no piece holds the whole text. The
    // first slice takes the low half of the pair (MiB + 1); the second (a MiB of characters) grows
    // by the escapes of the lone surrogate and of CR.
    expect(pieces.map((p) => p.length)).toEqual([1, 17, 1, MIB + 1, MIB + 6, 16, 1, 1]);
  });

  it("fingerprints the same with node's incremental hash and with Web Crypto", async () => {
    const body = {
      attachments: [{ content_base64: `${"QUJD".repeat(1_500_000)}\r\n${"é".repeat(3)}`, filename: "a.pdf" }],
      type: "incasso",
    };
    const expected = createHash("sha256")
      .update(`POST /api/v1/orders\n${canonicalJson(body)}`, "utf8")
      .digest("hex");
    expect(await fingerprintOf("POST", "/api/v1/orders", body)).toBe(expected);
    const processWithBuiltins = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = processWithBuiltins.getBuiltinModule;
    processWithBuiltins.getBuiltinModule = undefined;
    try {
      expect(await fingerprintOf("POST", "/api/v1/orders", body)).toBe(expected);
    } finally {
      processWithBuiltins.getBuiltinModule = getBuiltinModule;
    }
  });

  it("gives the long strings of a body parsed without escapes as they are, in the same text", async () => {
    const MIB = 1024 * 1024;
    // Raw UTF-8 (no escapes): a surrogate pair across the first slice boundary, and é.
    const content = `${"A".repeat(MIB - 1)}\u{1F600}${"é".repeat(MIB)}QUJD`;
    const text = JSON.stringify({
      type: "incasso",
      attachments: [{ content_base64: content, filename: "f.pdf" }],
    });
    expect(text.includes("\\")).toBe(false);
    const body = JSON.parse(text) as unknown;
    noteParsedWithoutEscapes(body);
    const pieces = [...canonicalJsonPieces(body)];
    expect(pieces.join("")).toBe(canonicalJson(JSON.parse(text)));
    // The slices are the string's own characters, the low half of the pair kept with the high one.
    expect(pieces).toContain(content.slice(0, MIB + 1));
    // readJsonBody notes it; the fingerprint is the same as over the whole text.
    const read = await readJsonBody(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      }),
    );
    const expected = createHash("sha256")
      .update(`POST /api/v1/orders\n${canonicalJson(JSON.parse(text))}`, "utf8")
      .digest("hex");
    expect(await fingerprintOf("POST", "/api/v1/orders", read)).toBe(expected);
    // A body with escapes (base64 wrapped with CR LF) is not noted: its strings are escaped.
    const wrapped = JSON.stringify({ content_base64: `${"QUJD".repeat(MIB / 2)}\r\n${"QUJD".repeat(8)}` });
    const readWrapped = await readJsonBody(
      new Request("http://x/api/v1/orders", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: wrapped,
      }),
    );
    expect(await fingerprintOf("POST", "/api/v1/orders", readWrapped)).toBe(
      createHash("sha256")
        .update(`POST /api/v1/orders\n${canonicalJson(JSON.parse(wrapped))}`, "utf8")
        .digest("hex"),
    );
  });
});
