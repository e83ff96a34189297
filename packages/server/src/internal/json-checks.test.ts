import { describe, expect, it } from "vitest";
import { badCharacterIn, nestsDeeperThan, pathsWithBadCharacters } from "./json-checks.js";

describe("JSON checks", () => {
  it("measures nesting with the top level as 1, arrays and objects alike", () => {
    expect(nestsDeeperThan("x", 0)).toBe(false);
    expect(nestsDeeperThan({ a: [1] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [{}] }, 2)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(`${"[".repeat(50_000)}${"]".repeat(50_000)}`), 64)).toBe(true);
  });

  it("finds every string and key with the NUL character, in document order, up to the limit", () => {
    const body = {
      reference: "a\u0000b",
      debtors: [{ name: "ok" }, { name: "x\u0000", address: { city: "\u0000" } }],
      metadata: { "k\u0000": "v", fine: "v" },
    };
    const paths = (limit: number) => pathsWithBadCharacters(body, limit).map((f) => f.path);
    expect(paths(10)).toEqual([
      ["reference"],
      ["debtors", 1, "name"],
      ["debtors", 1, "address", "city"],
      ["metadata", "k\u0000"],
    ]);
    expect(paths(2)).toEqual([["reference"], ["debtors", 1, "name"]]);
    expect(pathsWithBadCharacters({ a: ["\\u0000", 0, null, true] }, 10)).toEqual([]);
  });

  it("tells an unpaired surrogate from a pair, at either end and in the middle", () => {
    for (const lone of ["\ud800", "a\udbff", "\udc00b", "x\udfffy", "\ud83d\ud83d\ude00", "\ude00\ud83d"]) {
      expect(badCharacterIn(lone), JSON.stringify(lone)).toBe("lone_surrogate");
    }
    for (const fine of ["", "plain", "\ud83d\ude00", "a\udbff\udfffb", "\uffff\ue000"]) {
      expect(badCharacterIn(fine), JSON.stringify(fine)).toBeUndefined();
    }
    expect(badCharacterIn("\u0000\ud800")).toBe("nul");
  });

  it("reports a bad key in its place among its siblings, and not its value", () => {
    expect(pathsWithBadCharacters({ a: "\ud800", "b\udc00": "\u0000", c: ["\u0000"] }, 10)).toEqual([
      { path: ["a"], character: "lone_surrogate" },
      { path: ["b\udc00"], character: "lone_surrogate" },
      { path: ["c", 0], character: "nul" },
    ]);
  });
});
