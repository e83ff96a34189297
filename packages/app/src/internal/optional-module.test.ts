import { describe, expect, it } from "vitest";
import { optionalModule } from "./optional-module.js";

describe("optionalModule", () => {
  it("loads an installed optional dependency", () => {
    const promClient = optionalModule<typeof import("prom-client")>("prom-client");
    expect(typeof promClient?.Registry).toBe("function");
  });

  it("is undefined for a package that is not installed, as after npm install --omit=optional", () => {
    expect(optionalModule("incasso-package-that-is-not-installed")).toBeUndefined();
  });
});
