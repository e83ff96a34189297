import { describe, expect, it } from "vitest";
import { DEFAULT_ATTACHMENT_LIMITS, resolveAttachmentLimits } from "./limits.js";

describe("attachment limits", () => {
  it("defaults to the spec's figures", () => {
    expect(DEFAULT_ATTACHMENT_LIMITS).toEqual({
      maxAttachments: 30,
      maxFileBytes: 10_485_760,
      maxTotalBytes: 26_214_400,
      maxFilenameLength: 120,
      parseTimeoutMs: 10_000,
      parseMemoryMb: 256,
      maxTextChars: 200_000,
      ocrBudgetMs: 8_000,
    });
    expect(Object.isFrozen(DEFAULT_ATTACHMENT_LIMITS)).toBe(true);
  });

  it("takes overrides and ignores undefined", () => {
    const limits = resolveAttachmentLimits({ maxAttachments: 10, maxFileBytes: undefined });
    expect(limits.maxAttachments).toBe(10);
    expect(limits.maxFileBytes).toBe(10_485_760);
  });

  it("rejects a limit that is not a positive integer or not known", () => {
    expect(() => resolveAttachmentLimits({ maxAttachments: 0 })).toThrow(RangeError);
    expect(() => resolveAttachmentLimits({ maxTotalBytes: 1.5 })).toThrow(
      "attachment limit maxTotalBytes must be a positive integer, got 1.5",
    );
    expect(() => resolveAttachmentLimits({ nope: 1 } as never)).toThrow("unknown attachment limit: nope");
  });

  it("takes an OCR budget of 0 (no OCR) but not below it", () => {
    expect(resolveAttachmentLimits({ ocrBudgetMs: 0 }).ocrBudgetMs).toBe(0);
    expect(() => resolveAttachmentLimits({ ocrBudgetMs: -1 })).toThrow(
      "attachment limit ocrBudgetMs must be a non-negative integer, got -1",
    );
  });
});
