/** A word's or line's box on the rendered page, in pixels from the top left. */
export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Whether a page's text layer is too thin to be the page's text (a scan). */
export declare function looksScanned(text: string): boolean;

/** Whether OCR can run on this thread, and if not, which optional dependencies are missing. */
export declare function ocrAvailability(): Promise<
  { available: true } | { available: false; reason: string }
>;

/** Reads the given 1-based pages of an open pdf.js document by OCR, within the time budget. */
export declare function ocrPages(
  pdf: unknown,
  pageNumbers: number[],
  options: { budgetMs: number; maxMemoryBytes?: number },
): Promise<{ texts: Map<number, string>; incomplete: boolean; unavailable: string | null }>;

/** Rebuilds a page's lines (cells split by tabs) from tesseract's blocks of recognised words. */
export declare function linesFromWords(
  blocks: Array<{
    paragraphs: Array<{ lines: Array<{ bbox: OcrBox; words: Array<{ text: string; bbox: OcrBox }> }> }>;
  }>,
): string;

/** Loads the optional OCR packages once per thread; `ok: false` names what is missing. */
export declare function loadOcrTools(): Promise<
  { ok: true; CanvasFactory: unknown } | { ok: false; reason: string }
>;

/** The bytes OCR holds: the recogniser thread's memory and the canvas of a page being rendered. */
export declare function ocrMemoryBytes(): number;

/** Keeps OCR within what the parse's memory budget has left; returns the bytes OCR holds. */
export declare function holdOcrWithin(availableBytes: number): number;
