import { describe, expect, it } from "vitest";
import type { CheckableAttachment, DeclaredDebtor, DocumentCheckInput } from "./document-check-types.js";
import { inspectPdf } from "./inspect-pdf.js";
import { invoiceLines, makeTextPdf, wikLetterLines } from "./internal/testing/fixtures.js";
import { silentLogger } from "./logger.js";
import { createRulesDocumentChecker } from "./rules-document-checker.js";
import { runDocumentCheck } from "./run-document-check.js";

const debtor: DeclaredDebtor = {
  type: "individual",
  first_name: "J.",
  last_name: "de Tester",
  address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
};

/** An attachment as the order engine hands it over: a real PDF, read back by pdf.js. */
async function attachment(
  index: number,
  document_type: CheckableAttachment["document_type"],
  lines: string[],
): Promise<CheckableAttachment> {
  const r = await inspectPdf(await makeTextPdf({ pages: [lines] }));
  if (!r.ok) throw new Error(r.code);
  return {
    index,
    filename: `bijlage-${index + 1}.pdf`,
    document_type,
    text: r.text,
    page_count: r.page_count,
  };
}

function check(input: DocumentCheckInput) {
  return runDocumentCheck(createRulesDocumentChecker(), input, { logger: silentLogger });
}

describe("rules document checker", () => {
  it("gives no warning when the invoice total and the letter agree with the declared data", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-2026-001", amount_cents: 12100 }],
      attachments: [
        await attachment(
          0,
          "invoice",
          invoiceLines({ number: "F-2026-001", total: "€ 121,00", vat: "NL000099998B57" }),
        ),
        await attachment(
          1,
          "wik_letter",
          wikLetterLines({
            invoice: "F-2026-001",
            principal: "€ 121,00",
            costs: "€ 40,00",
            vat: "NL000099998B57",
          }),
        ),
      ],
    });
    expect(warnings).toEqual([]);
  });

  it("warns ai_invoice_mismatch when the total differs, naming the invoice", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [
        { invoice_number: "F-2026-001", amount_cents: 120000 },
        { invoice_number: "F-2026-002", amount_cents: 5000 },
      ],
      attachments: [
        await attachment(0, "invoice", invoiceLines({ number: "F-2026-001", total: "€ 1.250,00" })),
        await attachment(
          1,
          null,
          invoiceLines({ number: "F-2026-002", total: "EUR 50", totalLabel: "Total due" }),
        ),
      ],
    });
    expect(warnings).toEqual([
      {
        code: "ai_invoice_mismatch",
        message:
          'Het totaalbedrag in bijlage "bijlage-1.pdf" (€ 1.250,00) wijkt af van het opgegeven bedrag van factuur F-2026-001 (€ 1.200,00). Het opgegeven bedrag is aangehouden.',
        invoice_number: "F-2026-001",
      },
    ]);
  });

  it("reads English totals and links the only invoice to the only invoice PDF", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "INV-7", amount_cents: 125000 }],
      attachments: [
        await attachment(0, "invoice", [
          "INVOICE",
          "Subtotal: 1,033.06",
          "VAT 21%: 216.94",
          "Total due: 1,205.00",
        ]),
      ],
    });
    expect(warnings.map((w) => [w.code, w.invoice_number])).toEqual([["ai_invoice_mismatch", "INV-7"]]);
    expect(warnings[0]?.message).toContain("(€ 1.205,00)");
  });

  it("does not compare a document that covers several invoices", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [
        { invoice_number: "F-2026-001", amount_cents: 100 },
        { invoice_number: "F-2026-002", amount_cents: 200 },
      ],
      attachments: [await attachment(0, "other", ["Overzicht F-2026-001 en F-2026-002", "Totaal: € 999,00"])],
    });
    expect(warnings).toEqual([]);
  });

  it("warns ai_document_mismatch for a different VAT number and debtor address on the letter", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-2026-001", amount_cents: 12100 }],
      attachments: [
        await attachment(
          0,
          "invoice",
          invoiceLines({ number: "F-2026-001", total: "€ 121,00", vat: "NL000099998B57" }),
        ),
        await attachment(
          1,
          "wik_letter",
          wikLetterLines({
            invoice: "F-2026-001",
            principal: "€ 121,00",
            costs: "€ 40,00",
            vat: "NL000011112B22",
            debtor: ["J. de Tester", "Andereweg 5", "8888 YY Elders"],
          }),
        ),
      ],
    });
    expect(warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'Het btw-nummer op "bijlage-1.pdf" (NL000099998B57) verschilt van dat op de aanmaning "bijlage-2.pdf" (NL000011112B22).',
        invoice_number: "F-2026-001",
      },
      {
        code: "ai_document_mismatch",
        message:
          'Het adres van de debiteur verschilt tussen "bijlage-1.pdf" en de aanmaning "bijlage-2.pdf": de opgegeven postcode staat wel op de factuur maar niet op de aanmaning.',
        invoice_number: "F-2026-001",
      },
    ]);
  });

  it("warns ai_document_mismatch when the letter names an invoice number found nowhere else", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-2026-001", amount_cents: 12100 }],
      attachments: [
        await attachment(0, "invoice", invoiceLines({ number: "F-2026-001", total: "€ 121,00" })),
        await attachment(
          1,
          "wik_letter",
          wikLetterLines({ invoice: "F-2026-999", principal: "€ 121,00", costs: "€ 40,00" }),
        ),
      ],
    });
    expect(warnings).toEqual([
      {
        code: "ai_document_mismatch",
        message:
          'De aanmaning "bijlage-2.pdf" noemt factuurnummer F-2026-999, dat niet bij de opgegeven facturen of in de factuurbijlagen voorkomt.',
        invoice_number: null,
      },
    ]);
  });

  it("warns wik_letter_detected for a 14-day letter sent as another type", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-2026-001", amount_cents: 12100 }],
      attachments: [
        await attachment(
          0,
          "other",
          wikLetterLines({ invoice: "F-2026-001", principal: "€ 121,00", costs: "€ 40,00" }),
        ),
      ],
    });
    expect(warnings).toEqual([
      {
        code: "wik_letter_detected",
        message:
          'Bijlage "bijlage-1.pdf" lijkt een veertiendagenbrief (aanmaning met betalingstermijn en incassokosten), maar is niet als wik_letter opgegeven.',
        invoice_number: "F-2026-001",
      },
    ]);
  });

  it("does not take an invoice whose footer names a term and collection costs for a letter", async () => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [
        await attachment(0, "invoice", [
          ...invoiceLines({ number: "F-1", total: "€ 121,00" }),
          "Bij niet tijdige betaling binnen 14 dagen zijn incassokosten verschuldigd.",
        ]),
      ],
    });
    expect(warnings).toEqual([]);
  });

  it.each([
    [{ term: true }, "een betalingstermijn van ten minste 14 dagen"],
    [{ costs: true }, "het bedrag van de incassokosten"],
    [{ consequence: true }, "de gevolgen van niet betalen"],
    [
      { term: true, costs: true, consequence: true },
      "een betalingstermijn van ten minste 14 dagen, de gevolgen van niet betalen en het bedrag van de incassokosten",
    ],
  ])("warns wik_letter_incomplete when the letter leaves out %j", async (leaveOut, missing) => {
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-2026-001", amount_cents: 12100 }],
      attachments: [
        await attachment(
          0,
          "wik_letter",
          wikLetterLines({ invoice: "F-2026-001", principal: "€ 121,00", costs: "€ 40,00" }, leaveOut),
        ),
      ],
    });
    expect(warnings).toEqual([
      {
        code: "wik_letter_incomplete",
        message: `De veertiendagenbrief "bijlage-1.pdf" mist wat art. 6:96 lid 6 BW vereist: ${missing}.`,
        invoice_number: "F-2026-001",
      },
    ]);
  });

  it("warns when the letter's term is shorter than 14 days", async () => {
    const lines = wikLetterLines({ invoice: "F-1", principal: "€ 121,00", costs: "€ 40,00" }).map((l) =>
      l.replace("binnen 14 dagen", "binnen 7 dagen"),
    );
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [await attachment(0, "wik_letter", lines)],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      'De veertiendagenbrief "bijlage-1.pdf" mist wat art. 6:96 lid 6 BW vereist: een betalingstermijn van ten minste 14 dagen (genoemd: 7 dagen).',
    ]);
  });

  it.each([
    [
      "binnen 14 dagen na dagtekening van deze brief",
      "een termijn die begint na de dag van ontvangst (de brief rekent de termijn vanaf de datum van de brief)",
    ],
    [
      "binnen 14 dagen vanaf de datum van deze brief",
      "een termijn die pas begint na de dag van ontvangst (de brief laat de termijn ingaan op de datum van de brief)",
    ],
  ])("warns when the letter counts the term from its own date (%s)", async (term, missing) => {
    const lines = wikLetterLines({ invoice: "F-1", principal: "€ 121,00", costs: "€ 40,00" }).map((l) =>
      l.replace("binnen 14 dagen na ontvangst van deze brief", term),
    );
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [await attachment(0, "wik_letter", lines)],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      `De veertiendagenbrief "bijlage-1.pdf" mist wat art. 6:96 lid 6 BW vereist: ${missing}.`,
    ]);
  });

  it("warns for a short term to pay even when a longer period is named elsewhere", async () => {
    const lines = wikLetterLines({ invoice: "F-1", principal: "€ 121,00", costs: "€ 40,00" }).map((l) =>
      l
        .replace("binnen 14 dagen", "binnen 7 dagen")
        .replace(
          "Ondanks eerdere herinneringen",
          "De factuur is al 30 dagen vervallen. Ondanks eerdere herinneringen",
        ),
    );
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [await attachment(0, "wik_letter", lines)],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      'De veertiendagenbrief "bijlage-1.pdf" mist wat art. 6:96 lid 6 BW vereist: een betalingstermijn van ten minste 14 dagen (genoemd: 7 dagen).',
    ]);
  });

  it("does not count the principal on the next line as the costs amount", async () => {
    const lines = wikLetterLines({ invoice: "F-1", principal: "€ 121,00", costs: "€ 40,00" }).map((l) =>
      l.startsWith("De buitengerechtelijke")
        ? "De buitengerechtelijke incassokosten bedragen 15% over de hoofdsom.\nOpenstaand: € 121,00"
        : l,
    );
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [
        await attachment(
          0,
          "wik_letter",
          lines.flatMap((l) => l.split("\n")),
        ),
      ],
    });
    expect(warnings.map((w) => w.message)).toEqual([
      'De veertiendagenbrief "bijlage-1.pdf" mist wat art. 6:96 lid 6 BW vereist: het bedrag van de incassokosten.',
    ]);
  });

  it("accepts 'veertien dagen' and an English letter", async () => {
    const dutch = wikLetterLines({ invoice: "F-1", principal: "€ 121,00", costs: "€ 40,00" }).map((l) =>
      l.replace("binnen 14 dagen", "binnen veertien dagen"),
    );
    const english = [
      "Final notice",
      "Invoice number: F-1",
      "Please pay the amount within 14 days of receiving this letter.",
      "If you do not pay within this term, collection costs of EUR 40.00 will be charged.",
    ];
    const warnings = await check({
      debtors: [debtor],
      invoices: [{ invoice_number: "F-1", amount_cents: 12100 }],
      attachments: [await attachment(0, "wik_letter", dutch), await attachment(1, "wik_letter", english)],
    });
    expect(warnings).toEqual([]);
  });

  it("skips an attachment without text and logs it", async () => {
    const logged: unknown[] = [];
    const warnings = await runDocumentCheck(
      createRulesDocumentChecker(),
      {
        debtors: [debtor],
        invoices: [{ invoice_number: "F-1", amount_cents: 1 }],
        attachments: [
          { index: 0, filename: "scan.pdf", document_type: "wik_letter", text: "  ", page_count: 1 },
        ],
      },
      { logger: { warn: (message, details) => logged.push([message, details]) } },
    );
    expect(warnings).toEqual([]);
    expect(logged).toEqual([
      ["document check skipped an attachment without text", { checker: "rules", attachment: 0 }],
    ]);
  });
});
