import { describe, expect, it } from "vitest";
import { DEFAULT_COUNTRY, isCountryCode, normaliseCountryCode } from "./country-code.js";
import { ISO_3166_ALPHA2 } from "./internal/iso-3166-alpha2.js";

describe("country codes", () => {
  it("bundles the 249 assigned ISO 3166-1 alpha-2 codes", () => {
    expect(ISO_3166_ALPHA2.size).toBe(249);
    for (const code of ISO_3166_ALPHA2) expect(code).toMatch(/^[A-Z]{2}$/);
    for (const code of ["NL", "BE", "DE", "FR", "GB", "US", "CW", "SX", "BQ", "AW", "SS", "AQ"]) {
      expect(ISO_3166_ALPHA2.has(code)).toBe(true);
    }
  });

  it.each(["UK", "EU", "XK", "AN", "YU", "CS", "ZZ", "XX", "AA", "QO"])(
    "%s is not an assigned code",
    (code) => {
      expect(isCountryCode(code)).toBe(false);
    },
  );

  it("normalises case and refuses anything but two letters", () => {
    expect(normaliseCountryCode("nl")).toBe("NL");
    expect(normaliseCountryCode("Be")).toBe("BE");
    expect(normaliseCountryCode("NLD")).toBeNull();
    expect(normaliseCountryCode("N")).toBeNull();
    expect(normaliseCountryCode(" NL")).toBeNull();
    expect(normaliseCountryCode("528")).toBeNull();
    expect(DEFAULT_COUNTRY).toBe("NL");
  });
});
