import { describe, expect, it } from "vitest";
import { formatIban, ibanProblem, normaliseIban } from "./iban.js";

describe("IBAN (ISO 13616)", () => {
  it("normalises spaces and case to the electronic form and prints groups of four", () => {
    expect(normaliseIban(" nl91 abna 0417 1643 00 ")).toBe("NL91ABNA0417164300");
    expect(formatIban("NL91ABNA0417164300")).toBe("NL91 ABNA 0417 1643 00");
    expect(formatIban("DE89370400440532013000")).toBe("DE89 3704 0044 0532 0130 00");
  });

  it("accepts IBANs whose mod-97 check holds (ISO 13616 examples)", () => {
    expect(ibanProblem("NL91ABNA0417164300")).toBeUndefined();
    expect(ibanProblem("DE89370400440532013000")).toBeUndefined();
    expect(ibanProblem("BE68539007547034")).toBeUndefined();
    expect(ibanProblem("GB29NWBK60161331926819")).toBeUndefined();
  });

  it("refuses wrong check digits, a wrong length for the country and a wrong shape, saying which", () => {
    expect(ibanProblem("NL92ABNA0417164300")).toBe("its check digits do not match (ISO 13616 mod-97)");
    expect(ibanProblem("NL91ABNA041716430")).toBe("an IBAN of NL has 18 characters, not 17");
    expect(ibanProblem("1291ABNA0417164300")).toBe(
      "it must be a country code, two check digits and 11 to 30 letters and digits",
    );
    expect(ibanProblem("")).toBe(
      "it must be a country code, two check digits and 11 to 30 letters and digits",
    );
  });
});
