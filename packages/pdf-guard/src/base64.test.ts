import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64Strict, decodeMeasured, measureBase64Strict } from "./base64.js";

describe("decodeBase64Strict", () => {
  it("decodes padded standard base64", () => {
    const r = decodeBase64Strict("JVBERi0=");
    expect(r).toEqual({ ok: true, bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]) });
  });

  it("ignores line breaks and spaces (RFC 2045 line wrapping)", () => {
    const r = decodeBase64Strict("JVBE\r\nRi0x\n LjcK\t");
    expect(r.ok && Buffer.from(r.bytes).toString("latin1")).toBe("%PDF-1.7\n");
  });

  it.each([
    ["data:application/pdf;base64,JVBERi0=", "base64_data_uri"],
    ["  DATA:application/pdf;base64,JVBERi0=", "base64_data_uri"],
    ["JVBERi0", "invalid_base64"],
    ["JVBERi0xLjcK=", "invalid_base64"],
    ["JVBER-0xLjcK", "invalid_base64"],
    ["JVBER_0xLjcK", "invalid_base64"],
    ["JV=ERi0xLjcK", "invalid_base64"],
    ["", "invalid_base64"],
    ["  \n", "invalid_base64"],
    ["JVBERi1=", "invalid_base64"],
    ["QR==", "invalid_base64"],
  ])("refuses %j with %s", (input, code) => {
    const r = decodeBase64Strict(input);
    expect(r.ok ? "ok" : r.code).toBe(code);
  });

  it("refuses an oversized file from its length, before decoding", () => {
    const r = decodeBase64Strict("AAAAAAAA", 5);
    expect(r).toEqual({
      ok: false,
      code: "attachment_too_large",
      message: "The decoded file has 6 bytes; at most 5 are allowed.",
    });
    expect(decodeBase64Strict("AAAAAAAA", 6).ok).toBe(true);
  });

  it("measures the decoded size without decoding, ignoring whitespace and padding", () => {
    expect(measureBase64Strict("JVBE\r\nRi0=")).toEqual({ ok: true, size: 5, compact: "JVBERi0=" });
    expect(measureBase64Strict(" QQ== ")).toEqual({ ok: true, size: 1, compact: "QQ==" });
    expect(measureBase64Strict("AAAA\nAAAA", 5)).toMatchObject({ ok: false, code: "attachment_too_large" });
  });

  it("round-trips any bytes, with or without line wrapping", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, wrap) => {
        let text = Buffer.from(bytes).toString("base64");
        if (wrap) text = text.replace(/(.{76})/g, "$1\r\n");
        const r = decodeBase64Strict(text);
        if (bytes.length === 0) return !r.ok;
        return r.ok && Buffer.from(r.bytes).equals(Buffer.from(bytes));
      }),
    );
  });

  // Arbitrary strings are almost never base64, so the property would only ever see refusals. The
  // texts here come from the base64 alphabet plus "=" and whitespace, so many are valid (about a
  // quarter of them) and the rest fail for base64 reasons: padding, length, non-canonical bits.
  const BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("");
  const base64ish = fc
    .array(
      fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...BASE64_CHARS) },
        { weight: 2, arbitrary: fc.constant("=") },
        { weight: 1, arbitrary: fc.constantFrom(" ", "\t", "\r", "\n") },
      ),
      { maxLength: 40 },
    )
    .map((chars) => chars.join(""));
  // Texts that are valid by construction: canonical base64 of random bytes, with whitespace
  // sprinkled in.
  const wrappedValid = fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 30 }), fc.array(fc.nat(60), { maxLength: 4 }))
    .map(([bytes, cuts]) => {
      let text = Buffer.from(bytes).toString("base64");
      for (const cut of cuts) {
        const at = cut % (text.length + 1);
        text = `${text.slice(0, at)}\n${text.slice(at)}`;
      }
      return text;
    });

  it("never accepts text that Node would decode differently from its canonical form", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(base64ish, wrappedValid), (text) => {
        const r = decodeBase64Strict(text);
        if (!r.ok) return true;
        accepted++;
        const compact = text.replace(/[\t\n\r ]/g, "");
        return (
          Buffer.from(r.bytes).toString("base64") === compact &&
          r.bytes.length === (compact.length / 4) * 3 - (compact.match(/=+$/)?.[0].length ?? 0)
        );
      }),
      { numRuns: 500 },
    );
    // The property must have seen real decodes, not only refusals.
    expect(accepted).toBeGreaterThan(100);
  });

  it("accepts exactly the texts whose compact form is canonical base64", () => {
    fc.assert(
      fc.property(base64ish, (text) => {
        const compact = text.replace(/[\t\n\r ]/g, "");
        const canonical =
          compact.length > 0 &&
          compact.length % 4 === 0 &&
          /^[A-Za-z0-9+/]*={0,2}$/.test(compact) &&
          Buffer.from(Buffer.from(compact, "base64")).toString("base64") === compact;
        return decodeBase64Strict(text).ok === canonical;
      }),
      { numRuns: 1000 },
    );
  });
});

describe("measureBase64Strict on large texts (checked by decoding, issue 22 item 5)", () => {
  const bytes = new Uint8Array(96 * 1024).map((_, i) => (i * 131 + 7) % 256);
  const text = Buffer.from(bytes).toString("base64");

  it("accepts a valid large text and keeps its bytes for decodeMeasured", () => {
    const measured = measureBase64Strict(text);
    expect(measured.ok).toBe(true);
    if (!measured.ok) return;
    expect(measured.size).toBe(bytes.length);
    expect(Buffer.from(measured.bytes ?? []).equals(bytes)).toBe(true);
    expect(decodeMeasured(measured).bytes).toBe(measured.bytes);
    // In shared memory, so the PDF worker reads them without a copy; exactly the file's bytes.
    expect(measured.bytes?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(measured.bytes?.byteLength).toBe(bytes.length);
    expect(measured.bytes?.buffer.byteLength).toBe(bytes.length);
  });

  it.each([
    ["-", 10],
    ["_", 70_000],
    [".", 5],
    ["é", 100_000],
    ["=", 64_000],
    ["*", text.length - 1],
  ])("refuses %j anywhere in a large text as invalid_base64", (character, at) => {
    const bad = text.slice(0, at) + character + text.slice(at + 1);
    expect(measureBase64Strict(bad)).toEqual({
      ok: false,
      code: "invalid_base64",
      message: "The base64 text contains characters outside the standard alphabet (A-Z, a-z, 0-9, +, /, =).",
    });
  });

  it("still says attachment_too_large, without decoding, for a large text over the limit", () => {
    expect(measureBase64Strict(text, 1000)).toMatchObject({ ok: false, code: "attachment_too_large" });
  });
});
