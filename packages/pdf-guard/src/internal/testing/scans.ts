// Scanned-document fixtures made on the fly: lines of text drawn on a canvas at 200 dpi, stored as
// a JPEG image filling an A4 page, so the PDF has no text layer at all (a scan). Test and benchmark
// use only; never exported from the package. Needs the optional @napi-rs/canvas.
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument } from "pdf-lib";

/** A piece of a line of a scanned page and where it starts (points from the left edge of A4). */
export interface ScanCell {
  text: string;
  x: number;
}

/** A line of a scanned page: its text at the left margin, or cells at given places (columns). */
export type ScanLine = string | ScanCell[];

/** Options of {@link makeScannedPdf}. */
export interface ScannedPdfOptions {
  /** The lines of each page, from the top, 11 pt, 16.5 pt apart. */
  pages: ScanLine[][];
  /** Pixels per inch of the image; default 200. */
  dpi?: number;
  /** The page size in points; default A4 (595 × 842). */
  size?: { width: number; height: number };
}

const A4 = { width: 595, height: 842 };

/** An image-only PDF: each page is one JPEG of the given lines, as a scanner would make it. */
export async function makeScannedPdf(options: ScannedPdfOptions): Promise<Uint8Array> {
  const dpi = options.dpi ?? 200;
  const size = options.size ?? A4;
  const k = dpi / 72;
  const doc = await PDFDocument.create();
  doc.setProducer("incasso test fixtures");
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));
  for (const lines of options.pages) {
    const canvas = createCanvas(Math.round(size.width * k), Math.round(size.height * k));
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "#111111";
    let y = 60;
    ctx.font = `${Math.round(11 * k)}px sans-serif`;
    for (const line of lines) {
      y += 16.5;
      for (const cell of typeof line === "string" ? [{ text: line, x: 50 }] : line) {
        ctx.fillText(cell.text, cell.x * k, y * k);
      }
    }
    const jpeg = await canvas.encode("jpeg", 85);
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([size.width, size.height]);
    page.drawImage(image, { x: 0, y: 0, width: size.width, height: size.height });
  }
  return doc.save({ useObjectStreams: false });
}
