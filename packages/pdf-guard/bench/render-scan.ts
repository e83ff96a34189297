// Benchmark helper: a text PDF turned into a scan, each page rendered by pdf.js (through unpdf) on
// @napi-rs/canvas at 200 dpi and stored as a JPEG filling the page, so no text layer is left. Made
// at run time from the shared invoices; nothing is stored.
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { PDFDocument } from "pdf-lib";
import { getDocumentProxy, renderPageAsImage } from "unpdf";

// pdf.js 5 draws text with ArrayBuffer.prototype.transferToFixedLength (ES2024), which Node 20
// lacks; this benchmark process gets a copying stand-in (the PDF worker does the same for OCR).
const proto = ArrayBuffer.prototype as unknown as Record<string, unknown>;
if (typeof proto.transferToFixedLength !== "function") {
  Object.defineProperty(proto, "transferToFixedLength", {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length?: number) {
      const size = length ?? this.byteLength;
      const copy = new ArrayBuffer(size);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return copy;
    },
  });
}

/** The image-only PDF of the first `maxPages` pages of `bytes`, and how many pages it has. */
export async function renderScan(
  bytes: Uint8Array,
  options: { maxPages: number; dpi?: number },
): Promise<{ bytes: Uint8Array; pages: number }> {
  const scale = (options.dpi ?? 200) / 72;
  const source = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  const count = Math.min(source.numPages, options.maxPages);
  const sizes: Array<{ width: number; height: number }> = [];
  for (let n = 1; n <= count; n++) {
    const viewport = (await source.getPage(n)).getViewport({ scale: 1 });
    sizes.push({ width: viewport.width, height: viewport.height });
  }
  await source.destroy();
  const doc = await PDFDocument.create();
  for (let n = 1; n <= count; n++) {
    const png = await renderPageAsImage(new Uint8Array(bytes), n, {
      canvasImport: () => import("@napi-rs/canvas"),
      scale,
    });
    const image = await loadImage(Buffer.from(png));
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, 0, 0);
    const jpeg = await doc.embedJpg(await canvas.encode("jpeg", 85));
    const size = sizes[n - 1] as { width: number; height: number };
    const page = doc.addPage([size.width, size.height]);
    page.drawImage(jpeg, { x: 0, y: 0, width: size.width, height: size.height });
  }
  return { bytes: await doc.save(), pages: count };
}
