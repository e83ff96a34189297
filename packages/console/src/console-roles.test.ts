import { describe, expect, it } from "vitest";
import { type ConsoleSection, mayUse } from "./console-roles.js";

describe("mayUse", () => {
  it("gives a handler cases, deliveries and UDF fields, and an admin everything", () => {
    const sections: ConsoleSection[] = [
      "cases",
      "deliveries",
      "udf",
      "keys",
      "operators",
      "endpoints",
      "organisations",
    ];
    expect(sections.filter((s) => mayUse("handler", s))).toEqual(["cases", "deliveries", "udf"]);
    expect(sections.filter((s) => mayUse("admin", s))).toEqual(sections);
  });
});
