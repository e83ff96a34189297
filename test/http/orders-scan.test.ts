// Issue 30, point 5 (decision pdf-guard-ocr): a scanned invoice, a PDF without a text layer, is
// read by OCR in the PDF workers and compared with the declared invoice through POST /orders on
// every transport. The scan is made here: the invoice drawn on a canvas, stored as one JPEG page.
// The limits are generous so the test never depends on the machine's speed.
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createPdfEngine, type PdfWorkerEngine } from "@incasso/pdf-guard/node";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeScannedPdf } from "../../packages/pdf-guard/src/internal/testing/scans.js";
import { business, json, orderBody } from "./orders-fixtures.js";

let store: SqlStore;
let engine: PdfWorkerEngine;
let api: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
let scan: string;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  store = await openCaseSystemStore();
  engine = createPdfEngine({ workers: 1 });
  api = fixtureApi({
    store,
    orders: {
      caseSystem: createBuiltInCaseSystem({ store }),
      attachmentLimits: { parseTimeoutMs: 300_000, ocrBudgetMs: 240_000 },
    },
    pdfEngine: engine,
    logger: quiet,
  });
  check = responseValidator(api.openapi());
  const bytes = await makeScannedPdf({
    pages: [
      [
        "Voorbeeld Installatietechniek B.V.",
        "FACTUUR",
        "Factuurnummer: F-30-9",
        "Factuurdatum: 01-09-2026",
        "",
        [
          { text: "Subtotaal", x: 300 },
          { text: "€ 870,25", x: 460 },
        ],
        [
          { text: "BTW 21%", x: 300 },
          { text: "€ 182,75", x: 460 },
        ],
        [
          { text: "Totaal", x: 300 },
          { text: "€ 1.053,00", x: 460 },
        ],
      ],
    ],
  });
  scan = Buffer.from(bytes).toString("base64");
}, 120_000);
afterAll(async () => {
  await engine.close();
  await store.close();
});

describe.each(transports)("POST /orders with a scanned invoice, over $name", (transport) => {
  let server: RunningTransport;
  let live: string;
  const cn = (n: string) => `${transport.name.replace(/[^a-z]/g, "").slice(0, 8)}-${n}`;
  const order = (amount: number, customer: string) =>
    orderBody({
      debtors: [business(cn(customer))],
      invoices: [
        { invoice_number: "F-30-9", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: amount },
      ],
      attachments: [{ filename: "scan.pdf", content_base64: scan, document_type: "invoice" }],
    });
  beforeAll(async () => {
    server = await transport.start(api);
    live = (
      await issueApiKey(store, {
        organisation: `scan ${transport.name}`,
        mode: "live",
        perMinute: 1000,
        perDay: 10_000,
      })
    ).key;
  });
  afterAll(() => server.close());

  it("201 with ai_invoice_mismatch when the declared amount is 10% above the scanned total", async () => {
    const res = await server.request("/orders", json(live, order(115830, "PLUS10")));
    expect(res.status).toBe(201);
    const body = await res.json();
    check("/orders", "post", 201, body);
    expect(body.warnings).toEqual([
      {
        code: "ai_invoice_mismatch",
        message:
          'Het totaalbedrag in bijlage "scan.pdf" (€ 1.053,00) wijkt af van het opgegeven bedrag van factuur F-30-9 (€ 1.158,30). Het opgegeven bedrag is aangehouden.',
        invoice_number: "F-30-9",
      },
    ]);
  }, 300_000);

  it("201 without a document warning at the scanned total", async () => {
    const res = await server.request("/orders", json(live, order(105300, "TRUE")));
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([]);
  }, 300_000);
});
