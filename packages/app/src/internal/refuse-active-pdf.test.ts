import { describe, expect, it } from "vitest";
import { refuseActivePdf } from "./refuse-active-pdf.js";

describe("refuseActivePdf", () => {
  it("takes the option over the variable", () => {
    expect(refuseActivePdf(false, { INCASSO_REFUSE_ACTIVE_PDF: "1" })).toBe(false);
    expect(refuseActivePdf(true, {})).toBe(true);
  });

  it("reads the variable as a switch, off when unset", () => {
    expect(refuseActivePdf(undefined, {})).toBe(false);
    for (const on of ["1", "true", "YES", " on "]) {
      expect(refuseActivePdf(undefined, { INCASSO_REFUSE_ACTIVE_PDF: on })).toBe(true);
    }
    for (const off of ["", "0", "false", "no", "off"]) {
      expect(refuseActivePdf(undefined, { INCASSO_REFUSE_ACTIVE_PDF: off })).toBe(false);
    }
  });

  it("refuses a value that is neither on nor off", () => {
    expect(() => refuseActivePdf(undefined, { INCASSO_REFUSE_ACTIVE_PDF: "ture" })).toThrow(
      new RangeError('INCASSO_REFUSE_ACTIVE_PDF must be 1 or 0 (true or false), got "ture"'),
    );
  });
});
