import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Whether this installation can read scans (issue 30, point 5), and if not, what is missing.
 *
 * @example
 * const ocr: OcrAvailability = { available: false, missing: ["tesseract.js"] };
 */
export type OcrAvailability =
  | { available: true; languages: string[] }
  | { available: false; missing: string[] };

// The optional dependencies OCR needs (decision pdf-guard-ocr): the canvas pages are rendered on,
// the recogniser, and its English and Dutch language data.
const PACKAGES = ["@napi-rs/canvas", "tesseract.js"] as const;
const LANGUAGES = ["eng", "nld"] as const;

/**
 * Looks, without loading them, for the optional packages the PDF workers need to read pages
 * without a text layer: `@napi-rs/canvas`, `tesseract.js`, `@tesseract.js-data/eng` and
 * `@tesseract.js-data/nld`. A host installed with `--omit=optional` has none of them and reads no
 * scans; a server says so in a start line.
 *
 * @example
 * const ocr = ocrAvailability();
 * console.log(ocr.available ? "scans: read by OCR" : `scans: not read (${ocr.missing.join(", ")} not installed)`);
 */
export function ocrAvailability(): OcrAvailability {
  const require = createRequire(import.meta.url);
  const missing: string[] = [];
  for (const name of PACKAGES) {
    try {
      require.resolve(`${name}/package.json`);
    } catch {
      missing.push(name);
    }
  }
  for (const language of LANGUAGES) {
    const name = `@tesseract.js-data/${language}`;
    try {
      const folder = dirname(require.resolve(`${name}/package.json`));
      if (!existsSync(join(folder, "4.0.0_best_int", `${language}.traineddata.gz`))) missing.push(name);
    } catch {
      missing.push(name);
    }
  }
  return missing.length === 0
    ? { available: true, languages: [...LANGUAGES] }
    : { available: false, missing };
}
