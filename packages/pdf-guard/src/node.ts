export { type OcrAvailability, ocrAvailability } from "./ocr-availability.js";
export {
  closePdfEngine,
  configurePdfEngine,
  createPdfEngine,
  getPdfEngine,
  type PdfEngineOptions,
  type PdfEngineStats,
  type PdfWorkerEngine,
  resolvePdfEngineOptions,
} from "./pdf-worker-engine.js";
