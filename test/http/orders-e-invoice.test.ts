// Issue 30 (decision pdf-guard-invoice-reading): an e-invoice PDF's embedded Factur-X (CII) or UBL
// data is compared with the declared invoice through POST /orders on every transport: a wrong
// amount gets ai_invoice_mismatch, the full total of an invoice shown partly paid ai_invoice_paid.
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ciiInvoiceXml,
  makeLayoutPdf,
  ublInvoiceXml,
} from "../../packages/pdf-guard/src/internal/testing/e-invoices.js";
import { makeTextPdf, wikLetterLines } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { business, json, orderBody } from "./orders-fixtures.js";

let store: SqlStore;
let api: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
let cii: string;
let ubl: string;
let ublWithBuyer: string;
let letterElsewhere: string;
let mixed: string;
const quiet = { info() {}, warn() {}, error() {} };

const pdf = async (name: string, xml: string) =>
  Buffer.from(
    await makeLayoutPdf({
      pages: [[{ text: "Factuur F-30-1", x: 50, y: 800 }]],
      attachments: [{ name, content: xml }],
    }),
  ).toString("base64");

beforeAll(async () => {
  store = await openCaseSystemStore();
  api = fixtureApi({ store, orders: { caseSystem: createBuiltInCaseSystem({ store }) }, logger: quiet });
  check = responseValidator(api.openapi());
  cii = await pdf(
    "factur-x.xml",
    ciiInvoiceXml({ number: "F-30-1", total: "1210.00", due: "210.00", prepaid: "1000.00" }),
  );
  ubl = await pdf("F-30-1.xml", ublInvoiceXml({ number: "F-30-1", total: "1053.00", due: "1053.00" }));
  // The Factur-X XML and a second embedded file, which is not an e-invoice.
  mixed = Buffer.from(
    await makeLayoutPdf({
      pages: [[{ text: "Factuur F-30-1", x: 50, y: 800 }]],
      attachments: [
        {
          name: "factur-x.xml",
          content: ciiInvoiceXml({ number: "F-30-1", total: "1210.00", due: "210.00", prepaid: "1000.00" }),
        },
        { name: "notes.xml", content: "<notes><note>Bel eerst</note></notes>" },
      ],
    }),
  ).toString("base64");
  ublWithBuyer = await pdf(
    "F-30-1.xml",
    ublInvoiceXml({ number: "F-30-1", total: "1053.00", due: "1053.00", buyerPostcode: "9999 ZZ" }),
  );
  // The 14-day letter for the same invoice and seller, sent to another address (issue 30, point 6).
  letterElsewhere = Buffer.from(
    await makeTextPdf({
      pages: [
        wikLetterLines({
          invoice: "F-30-1",
          principal: "€ 1.053,00",
          costs: "€ 157,95",
          vat: "NL000099998B57",
          debtor: ["Voorbeeld B.V.", "Andereweg 5", "8888 YY Elders"],
        }),
      ],
    }),
  ).toString("base64");
  // The store's start and pdf-lib's first document are slow on a busy machine.
}, 120_000);
afterAll(() => store.close());

const embedded = (filename: string) => ({
  code: "pdf_active_content",
  message: `Bijlage ${filename} (attachments[0]) bevat actieve inhoud: een ingesloten bestand. Het bestand is ongewijzigd aangenomen; de opdracht is wel verwerkt.`,
  invoice_number: null,
});

describe.each(transports)("POST /orders with an e-invoice PDF, over $name", (transport) => {
  let server: RunningTransport;
  let live: string;
  const cn = (n: string) => `${transport.name.replace(/[^a-z]/g, "").slice(0, 8)}-${n}`;
  const order = (amount: number, filename: string, content: string, customer: string) =>
    orderBody({
      debtors: [business(cn(customer))],
      invoices: [
        { invoice_number: "F-30-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: amount },
      ],
      attachments: [{ filename, content_base64: content, document_type: "invoice" }],
    });
  beforeAll(async () => {
    server = await transport.start(api);
    live = (
      await issueApiKey(store, {
        organisation: `einvoice ${transport.name}`,
        mode: "live",
        perMinute: 1000,
        perDay: 10_000,
      })
    ).key;
  });
  afterAll(() => server.close());

  it("201 with ai_invoice_mismatch when the declared amount is not the UBL total", async () => {
    const res = await server.request("/orders", json(live, order(115830, "ubl.pdf", ubl, "UBL")));
    expect(res.status).toBe(201);
    const body = await res.json();
    check("/orders", "post", 201, body);
    expect(body.warnings).toEqual([
      {
        code: "ai_invoice_mismatch",
        message:
          'Het totaalbedrag in bijlage "ubl.pdf" (€ 1.053,00) wijkt af van het opgegeven bedrag van factuur F-30-1 (€ 1.158,30). Het opgegeven bedrag is aangehouden.',
        invoice_number: "F-30-1",
      },
    ]);
  });

  it("201 with ai_invoice_paid when the full total is declared for a Factur-X invoice shown partly paid", async () => {
    const res = await server.request("/orders", json(live, order(121000, "cii.pdf", cii, "CII")));
    expect(res.status).toBe(201);
    const body = await res.json();
    check("/orders", "post", 201, body);
    expect(body.warnings).toEqual([
      {
        code: "ai_invoice_paid",
        message:
          'Volgens bijlage "cii.pdf" is factuur F-30-1 al gedeeltelijk betaald: het totaal is € 1.210,00, nog te betalen € 210,00. Het opgegeven bedrag (€ 1.210,00) is het volle totaal en is aangehouden.',
        invoice_number: "F-30-1",
      },
    ]);
  });

  it("201 with ai_document_mismatch when the letter goes to another address than the UBL buyer's", async () => {
    const body = orderBody({
      debtors: [business(cn("LETTER"))],
      invoices: [
        { invoice_number: "F-30-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 105300 },
      ],
      attachments: [
        { filename: "ubl.pdf", content_base64: ublWithBuyer, document_type: "invoice" },
        { filename: "brief.pdf", content_base64: letterElsewhere, document_type: "wik_letter" },
      ],
    });
    const res = await server.request("/orders", json(live, body));
    expect(res.status).toBe(201);
    const answer = await res.json();
    check("/orders", "post", 201, answer);
    expect(answer.warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'Het adres van de debiteur verschilt tussen "ubl.pdf" en de aanmaning "brief.pdf": de factuur is gericht aan postcode 9999 ZZ, die niet op de aanmaning staat.',
        invoice_number: "F-30-1",
      },
    ]);
  });

  it("201 without a warning when the amount still due is declared: the invoice's own XML is not active content", async () => {
    const res = await server.request("/orders", json(live, order(21000, "cii.pdf", cii, "DUE")));
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([]);
  });

  it("201 with pdf_active_content when another file is embedded beside the e-invoice's XML", async () => {
    const res = await server.request("/orders", json(live, order(21000, "mixed.pdf", mixed, "MIXED")));
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([embedded("mixed.pdf")]);
  });
});
