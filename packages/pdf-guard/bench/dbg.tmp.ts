import { readFileSync } from "node:fs";
import { readInvoiceTotals } from "../src/internal/invoice-totals.js";
import { createPdfEngine } from "../src/node.js";
import { renderScan } from "./render-scan.js";

const engine = createPdfEngine({ workers: 1 });
for (const name of process.argv.slice(2)) {
  const scan = await renderScan(new Uint8Array(readFileSync(`/work/shared/data/invoices/pdfs/${name}.pdf`)), {
    maxPages: 3,
  });
  const r = await engine.parse(scan.bytes, {
    parseTimeoutMs: 120000,
    parseMemoryMb: 256,
    maxTextChars: 200000,
    ocrBudgetMs: 100000,
  });
  if (r.ok) {
    const t = r.pages.join("\n");
    console.log(
      name,
      "\n" +
        t
          .split("\n")
          .filter((l) => /\d[.,]\d\d/.test(l))
          .join("\n"),
    );
    console.log(readInvoiceTotals(t, { strict: true }), readInvoiceTotals(t));
  }
}
await engine.close();
