import { describe, expect, it } from "vitest";
import { CASE_NUMBER_PATTERN, formatCaseNumber } from "./case-number.js";
import { CASE_STATUSES, isCaseStatus, isOpenStatus } from "./case-statuses.js";

describe("case numbers and statuses", () => {
  it("pads to six digits and never cuts a longer number", () => {
    expect(formatCaseNumber(2026, 1)).toBe("2026-000001");
    expect(formatCaseNumber(2026, 999_999)).toBe("2026-999999");
    expect(formatCaseNumber(2027, 1_234_567)).toBe("2027-1234567");
    expect(CASE_NUMBER_PATTERN.test("2027-1234567")).toBe(true);
    expect(CASE_NUMBER_PATTERN.test("2026-12345")).toBe(false);
    expect(() => formatCaseNumber(2026, 0)).toThrow(RangeError);
    expect(() => formatCaseNumber(26, 1)).toThrow(RangeError);
  });

  it("lists the statuses; only Gesloten is closed", () => {
    expect(CASE_STATUSES).toEqual(["Nieuw", "In behandeling", "Aangehouden", "Gesloten"]);
    expect(CASE_STATUSES.filter(isOpenStatus)).toEqual(["Nieuw", "In behandeling", "Aangehouden"]);
    expect(isCaseStatus("Gesloten")).toBe(true);
    expect(isCaseStatus("gesloten")).toBe(false);
  });
});
