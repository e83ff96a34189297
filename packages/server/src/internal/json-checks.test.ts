import { describe, expect, it } from "vitest";
import { nestsDeeperThan, pathsWithNul } from "./json-checks.js";

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
    expect(pathsWithNul(body, 10)).toEqual([
      ["reference"],
      ["debtors", 1, "name"],
      ["debtors", 1, "address", "city"],
      ["metadata", "k\u0000"],
    ]);
    expect(pathsWithNul(body, 2)).toEqual([["reference"], ["debtors", 1, "name"]]);
    expect(pathsWithNul({ a: ["\\u0000", 0, null, true] }, 10)).toEqual([]);
  });
});
