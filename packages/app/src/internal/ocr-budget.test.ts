import { describe, expect, it } from "vitest";
import { ocrBudgetMs, ocrStartLine } from "./ocr-budget.js";

describe("OCR budget", () => {
  it("takes the option, else INCASSO_OCR_BUDGET_MS, else 8000", () => {
    expect(ocrBudgetMs(2_000, { INCASSO_OCR_BUDGET_MS: "5000" })).toBe(2_000);
    expect(ocrBudgetMs(undefined, { INCASSO_OCR_BUDGET_MS: "5000" })).toBe(5_000);
    expect(ocrBudgetMs(undefined, { INCASSO_OCR_BUDGET_MS: "0" })).toBe(0);
    expect(ocrBudgetMs(undefined, {})).toBe(8_000);
  });

  it("refuses a value that is not a whole number of 0 or more, naming where it came from", () => {
    expect(() => ocrBudgetMs(undefined, { INCASSO_OCR_BUDGET_MS: "8s" })).toThrow(
      'INCASSO_OCR_BUDGET_MS must be a whole number of milliseconds (0 = no OCR), got "8s"',
    );
    expect(() => ocrBudgetMs(-1, {})).toThrow("ocrBudgetMs must be a whole number of 0 or more, got -1");
  });

  it("says at start whether scans are read", () => {
    // The workspace installs the optional OCR packages.
    expect(ocrStartLine(8_000)).toEqual({
      level: "info",
      message: "scans: PDFs without a text layer are read by OCR (English, Dutch), up to 8000 ms per PDF",
    });
    expect(ocrStartLine(0)).toEqual({
      level: "info",
      message: "scans: not read, OCR is off (INCASSO_OCR_BUDGET_MS=0)",
    });
  });
});
