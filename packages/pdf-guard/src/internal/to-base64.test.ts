import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64, fromBase64Portable, toBase64 } from "./to-base64.js";

describe("base64 without Buffer", () => {
  it("writes what Buffer writes, for sizes across the chunk boundary", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
      }),
      { numRuns: 30 },
    );
    expect(toBase64(new Uint8Array(0x8000 + 1).fill(255))).toBe(
      Buffer.alloc(0x8000 + 1, 255).toString("base64"),
    );
  });

  it("decodes the same bytes with and without Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const text = Buffer.from(bytes).toString("base64");
        expect(fromBase64Portable(text)).toEqual(new Uint8Array(bytes));
        expect(fromBase64(text)).toEqual(new Uint8Array(bytes));
      }),
    );
  });
});
