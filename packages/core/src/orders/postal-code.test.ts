import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DUTCH_POSTAL_CODE_FORMAT, normaliseDutchPostalCode } from "./postal-code.js";

describe("normaliseDutchPostalCode", () => {
  it.each([
    ["1234 AB", "1234 AB"],
    ["1234AB", "1234 AB"],
    ["1234 ab", "1234 AB"],
    ["0000aa", "0000 AA"],
  ])("%j → %j", (input, out) => {
    expect(normaliseDutchPostalCode(input)).toBe(out);
  });

  it.each([
    "1234  AB",
    " 1234 AB",
    "1234 AB ",
    "1234-AB",
    "123 AB",
    "12345 AB",
    "1234 A",
    "1234 ABC",
    "１２３４ AB",
    "1234 ÄB",
    "",
  ])("%j → null", (input) => {
    expect(normaliseDutchPostalCode(input)).toBeNull();
  });

  it("always returns the spec's format or null (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (s) => {
        const out = normaliseDutchPostalCode(s);
        if (out !== null) expect(out).toMatch(DUTCH_POSTAL_CODE_FORMAT);
      }),
    );
  });
});
