import { DEFAULT_ATTACHMENT_LIMITS } from "@incasso/pdf-guard";
import { ocrAvailability } from "@incasso/pdf-guard/node";

/** The environment variable that sets the OCR time budget per PDF attachment, in milliseconds. */
export const OCR_BUDGET_ENV = "INCASSO_OCR_BUDGET_MS";

/**
 * The time one PDF's scanned pages may take to be read by OCR (decision pdf-guard-ocr), in ms:
 * the option when given, else INCASSO_OCR_BUDGET_MS, else pdf-guard's default (8 000). 0 reads no
 * scans. A value that is not a whole number of 0 or more is an error, not a quiet default.
 *
 * @throws {RangeError} for a value that is not a non-negative integer, naming its source
 * @example
 * ocrBudgetMs(undefined, { INCASSO_OCR_BUDGET_MS: "5000" }); // 5000
 */
export function ocrBudgetMs(option: number | undefined, env: Record<string, string | undefined>): number {
  if (option !== undefined) {
    if (!Number.isSafeInteger(option) || option < 0) {
      throw new RangeError(`ocrBudgetMs must be a whole number of 0 or more, got ${String(option)}`);
    }
    return option;
  }
  const raw = env[OCR_BUDGET_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_ATTACHMENT_LIMITS.ocrBudgetMs;
  if (!/^\d+$/.test(raw.trim())) {
    throw new RangeError(
      `${OCR_BUDGET_ENV} must be a whole number of milliseconds (0 = no OCR), got "${raw}"`,
    );
  }
  return Number(raw.trim());
}

/**
 * The start line about scans: read by OCR within the budget, switched off, or not read because
 * the optional OCR packages are not installed (`--omit=optional`).
 *
 * @example
 * ocrStartLine(8000); // "scans: PDFs without a text layer are read by OCR (English, Dutch), up to 8000 ms per PDF"
 */
export function ocrStartLine(budgetMs: number): { level: "info" | "warn"; message: string } {
  if (budgetMs === 0) {
    return { level: "info", message: `scans: not read, OCR is off (${OCR_BUDGET_ENV}=0)` };
  }
  const ocr = ocrAvailability();
  if (!ocr.available) {
    return {
      level: "warn",
      message: `scans: not read, OCR is not installed (optional packages missing: ${ocr.missing.join(", ")}); PDFs without a text layer get no document check`,
    };
  }
  return {
    level: "info",
    message: `scans: PDFs without a text layer are read by OCR (English, Dutch), up to ${budgetMs} ms per PDF`,
  };
}
