import { describe, expect, it } from "vitest";
import { prefixRange } from "./console-queries.js";

describe("prefixRange", () => {
  it("gives the bytewise range of names starting with the lower-cased text", () => {
    expect(prefixRange("Jan")).toEqual(["jan", "jao"]);
    expect(prefixRange("de v")).toEqual(["de v", "de w"]);
    expect(prefixRange("Müller")).toEqual(["müller", "mülles"]);
    expect(prefixRange("z")).toEqual(["z", "{"]);
  });
});
