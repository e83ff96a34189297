/** What the PDF parse reports: the facts of a readable PDF, or why it was not readable. */
export type PdfParseOutcome =
  | {
      ok: true;
      page_count: number;
      pages: string[];
      text_truncated: boolean;
      encryption: "none" | "owner_password_only";
      pdf_version: string | null;
      /** Kinds of active content found, in the order javascript, launch, embedded_file, bytes_before_header. */
      active_content: Array<"javascript" | "launch" | "embedded_file" | "bytes_before_header">;
      /** Embedded files that are XML (an e-invoice's data), at most 4 of at most 2 MiB each. */
      embedded_xml: Array<{ filename: string; xml: string }>;
      /**
       * OCR of pages without a text layer: the 1-based pages whose text was recognised, whether
       * some scanned page was left unread (time budget spent, or OCR not installed), and why OCR
       * could not run at all (null when it could or was not needed).
       */
      ocr: { pages: number[]; incomplete: boolean; unavailable: string | null };
    }
  | { ok: false; reason: "password" | "damaged"; detail: string };

/** Opens a PDF with pdf.js, extracts its text page by page, and reports its active content. */
export declare function parsePdf(
  bytes: Uint8Array,
  options: { maxTextChars: number; ocrBudgetMs?: number; maxMemoryBytes?: number },
): Promise<PdfParseOutcome>;

/** Keeps OCR within what the parse's memory budget has left; returns the bytes OCR holds. */
export declare function holdOcrWithin(availableBytes: number): number;
