/**
 * Limits applied to the attachments of one order. All sizes count the decoded binary (spec section
 * Limits: "counted on the decoded binary").
 *
 * @example
 * const limits: AttachmentLimits = { ...DEFAULT_ATTACHMENT_LIMITS, maxAttachments: 10 };
 */
export interface AttachmentLimits {
  /** Most attachments per order. Default 30 (decision pdf-guard-attachment-count). */
  maxAttachments: number;
  /** Most decoded bytes per file. Default 10 MiB (spec: "10 MB per file"). */
  maxFileBytes: number;
  /** Most decoded bytes per order. Default 25 MiB (spec: "25 MB in total"). */
  maxTotalBytes: number;
  /** Longest filename accepted, in characters (spec Attachment: filename max 120). */
  maxFilenameLength: number;
  /**
   * Wall-clock time one PDF may take to parse before it is refused as `pdf_timeout`. The clock
   * starts when a worker receives the file, so time spent waiting for a free worker never counts
   * (decision pdf-guard-pdf-engine).
   */
  parseTimeoutMs: number;
  /**
   * Memory one PDF parse may use, in MiB: the worker's ArrayBuffers (decoded streams) plus heap are
   * watched against it, and the worker's V8 heap is capped by the engine's `heapLimitMb`; over
   * either the file is refused as `pdf_too_complex`. OCR counts in it too (the canvas of the page
   * being rendered, the recogniser thread's WebAssembly and JavaScript memory), held to what the
   * parse leaves of it: a scanned page that does not fit is left unread, the file is not refused
   * (decision pdf-guard-ocr).
   */
  parseMemoryMb: number;
  /** Most characters of text kept per PDF; the rest is cut and `text_truncated` is set. */
  maxTextChars: number;
  /**
   * Time one PDF's scanned pages (pages without a text layer) may take to be read by OCR, in ms;
   * 0 reads none. Counted from the start of the parse and always ended before `parseTimeoutMs`, so
   * a slow scan is read in part, never refused. OCR runs only in a PDF engine's workers and only
   * when its optional dependencies are installed (decision pdf-guard-ocr). Default 8 000: a
   * three-page scan within 10 s on two cores.
   */
  ocrBudgetMs: number;
}

const MIB = 1024 * 1024;

/**
 * The defaults. "MB" in the spec is read as MiB (2^20 bytes), the reading that never refuses a file
 * a client's operating system shows as at most 10 MB (decision pdf-guard-size-units).
 *
 * @example
 * DEFAULT_ATTACHMENT_LIMITS.maxFileBytes; // 10485760
 */
export const DEFAULT_ATTACHMENT_LIMITS: Readonly<AttachmentLimits> = Object.freeze({
  maxAttachments: 30,
  maxFileBytes: 10 * MIB,
  maxTotalBytes: 25 * MIB,
  maxFilenameLength: 120,
  parseTimeoutMs: 10_000,
  parseMemoryMb: 256,
  maxTextChars: 200_000,
  ocrBudgetMs: 8_000,
});

/**
 * Fills in the defaults and rejects nonsense (a limit that is not a positive integer), so a typo in
 * a configuration file fails at start-up instead of letting every file through.
 *
 * @example
 * resolveAttachmentLimits({ maxAttachments: 10 }).maxAttachments; // 10
 */
export function resolveAttachmentLimits(overrides: Partial<AttachmentLimits> = {}): AttachmentLimits {
  const limits: AttachmentLimits = { ...DEFAULT_ATTACHMENT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as [keyof AttachmentLimits, unknown][]) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_ATTACHMENT_LIMITS)) throw new TypeError(`unknown attachment limit: ${key}`);
    // The OCR budget alone may be 0: no OCR.
    const least = key === "ocrBudgetMs" ? 0 : 1;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least) {
      throw new RangeError(
        `attachment limit ${key} must be a ${least === 0 ? "non-negative" : "positive"} integer, got ${String(value)}`,
      );
    }
    limits[key] = value;
  }
  return limits;
}
