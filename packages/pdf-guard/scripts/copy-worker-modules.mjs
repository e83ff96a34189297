// Copies the worker modules into dist at build time. tsup bundles src/index.ts and src/node.ts,
// but these files are loaded at run time by URL (`new URL("./pdf-worker.mjs", import.meta.url)`
// from dist/index.js), so they ship as they are, beside the bundle. Their hand-written declaration
// files go to dist/internal, where tsc writes the declarations that import them
// (dist/internal/worker-pool.d.ts imports "./parse-pdf.mjs").
import { cpSync } from "node:fs";

const src = new URL("../src/internal/", import.meta.url);
const dist = new URL("../dist/", import.meta.url);
for (const file of [
  "pdf-worker.mjs",
  "parse-pdf.mjs",
  "scan-active-content.mjs",
  "ocr-pages.mjs",
  "ocr-recognizer.mjs",
]) {
  cpSync(new URL(file, src), new URL(file, dist));
}
for (const file of ["parse-pdf.d.mts", "scan-active-content.d.mts", "ocr-pages.d.mts"]) {
  cpSync(new URL(file, src), new URL(`internal/${file}`, dist));
}
