import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64Url, randomBytes, toBase64Url, toHex, utf8Bytes, utf8Text } from "./bytes.js";

// Node's Buffer is the reference: these helpers replace it and must write the same text.
describe("byte helpers", () => {
  it("write hex and base64url exactly as Buffer does", () => {
    expect(toHex(Uint8Array.of(0, 1, 2, 250, 255))).toBe("000102faff");
    expect(toBase64Url(Uint8Array.of(0, 1, 2, 250, 251, 252, 253, 254, 255))).toBe("AAEC-vv8_f7_");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(toHex(bytes)).toBe(Buffer.from(bytes).toString("hex"));
        expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
    );
  });

  it("decodes base64url like Buffer, and refuses what Buffer would silently skip", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/), (text) => {
        const decoded = fromBase64Url(text);
        if (text.length % 4 === 1) expect(decoded).toBeNull();
        else expect(decoded).toEqual(new Uint8Array(Buffer.from(text, "base64url")));
      }),
    );
    expect(fromBase64Url("ab+c")).toBeNull();
    expect(fromBase64Url("abc=")).toBeNull();
    expect(fromBase64Url("ab c")).toBeNull();
  });

  it("reads and writes UTF-8 as Buffer does, invalid bytes included", () => {
    expect(utf8Bytes("€")).toEqual(Uint8Array.of(0xe2, 0x82, 0xac));
    expect(utf8Text(Uint8Array.of(0x61, 0xff, 0x62))).toBe(Buffer.from([0x61, 0xff, 0x62]).toString("utf8"));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(utf8Text(bytes)).toBe(Buffer.from(bytes).toString("utf8"));
      }),
    );
  });

  it("draws fresh random bytes of the asked length", () => {
    const a = randomBytes(16);
    expect(a).toBeInstanceOf(Uint8Array);
    expect(a.length).toBe(16);
    expect(toHex(a)).not.toBe(toHex(randomBytes(16)));
  });
});
