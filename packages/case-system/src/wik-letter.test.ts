import { createRulesDocumentChecker, inspectPdf, runDocumentCheck } from "@incasso/pdf-guard";
import { calculateCollectionCosts } from "@incasso/wik";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderWikLetterPdf } from "./render-wik-letter.js";
import { composeWikLetter, type WikLetterInput } from "./wik-letter.js";

const address = {
  street: "Teststraat",
  house_number: "10",
  house_number_suffix: "A",
  postal_code: "9999 ZZ",
  city: "Testdorp",
  country: "NL",
};
// RULES.md §1.1: 1,000 + 2,000 → the fee on 3,000 = 425 (art. 6:96 lid 7 BW), not 150 + 300.
const input: WikLetterInput = {
  letterDate: "2026-11-21",
  caseNumber: "2026-000042",
  reference: "R-77",
  creditorName: "Acme BV",
  debtors: [
    { name: "Jan de Vries", address },
    { name: "Jan de Vries", address },
  ],
  invoices: [
    { invoiceNumber: "F-1", invoiceDate: "2026-10-01", dueDate: "2026-10-15", amountCents: 100_000 },
    { invoiceNumber: "F-2", invoiceDate: "2026-10-02", dueDate: "2026-10-16", amountCents: 200_000 },
  ],
  paidCents: 0,
  sender: {
    name: "Incassobureau Voorbeeld B.V.",
    street: "Keizersgracht 100",
    postalCode: "1015 AA",
    city: "Amsterdam",
    iban: "NL91ABNA0417164300",
    bic: "ABNANL2A",
    kvkNumber: "12345678",
    phone: "020 123 4567",
    email: "info@voorbeeld.nl",
  },
};

// Written independently of the code under test: `€ 1.234,56`.
function euroOf(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString("de-DE");
  return `€ ${whole},${String(cents % 100).padStart(2, "0")}`;
}

/** The extracted text with pdf.js's line breaks and spacing folded to single spaces. */
async function textOf(bytes: Uint8Array): Promise<string> {
  const inspected = await inspectPdf(bytes);
  if (!inspected.ok) throw new Error(inspected.message);
  return inspected.text.replace(/\s+/g, " ").trim();
}

describe("composeWikLetter", () => {
  it("adds the principals together before the scale and states the costs on the sum", () => {
    const letter = composeWikLetter(input);
    expect(letter).toMatchObject({
      principalCents: 300_000,
      paidCents: 0,
      outstandingCents: 300_000,
      collectionCostsCents: 42_500,
      title: "Aanmaning dossier 2026-000042",
    });
  });

  it("takes the costs over what is still unpaid after payments", () => {
    const letter = composeWikLetter({ ...input, paidCents: 50_000 });
    expect(letter.outstandingCents).toBe(250_000);
    expect(letter.collectionCostsCents).toBe(37_500);
    expect(letter.blocks).toContainEqual({
      kind: "table",
      header: ["Factuur", "Factuurdatum", "Vervaldatum", "Bedrag"],
      rows: [
        ["F-1", "1 oktober 2026", "15 oktober 2026", "€ 1.000,00"],
        ["F-2", "2 oktober 2026", "16 oktober 2026", "€ 2.000,00"],
      ],
      totals: [
        ["Totaal hoofdsom", "€ 3.000,00"],
        ["Reeds betaald", "€ 500,00"],
        ["Nog te betalen", "€ 2.500,00"],
      ],
    });
  });

  it("refuses a case without invoices or with nothing unpaid", () => {
    expect(() => composeWikLetter({ ...input, invoices: [] })).toThrow(
      expect.objectContaining({ code: "no_invoices" }),
    );
    expect(() => composeWikLetter({ ...input, paidCents: 300_000 })).toThrow(
      expect.objectContaining({ code: "nothing_outstanding" }),
    );
  });

  it("refuses a letter without a sender, because it would not say where to pay", () => {
    expect(() => composeWikLetter({ ...input, sender: null })).toThrow(
      expect.objectContaining({
        code: "letter_details_missing",
        message:
          "The letter details of the organisation of case 2026-000042 have no IBAN, so the letter would not say where to pay; set them with: incasso letter-details set --organisation NAME --iban IBAN.",
      }),
    );
  });

  it("prints only the sender's fields that are set, and signs for the creditor when that is the sender", () => {
    const letter = composeWikLetter({
      ...input,
      sender: {
        name: "Acme BV",
        street: null,
        postalCode: null,
        city: null,
        iban: "NL91ABNA0417164300",
        bic: null,
        kvkNumber: null,
        phone: null,
        email: null,
      },
    });
    const lines = letter.blocks.flatMap((b) => (b.kind === "line" ? [b.text] : []));
    expect(lines[0]).toBe("Acme BV");
    expect(lines[1]).toBe("Jan de Vries");
    expect(lines.at(-1)).toBe("Acme BV");
    const texts = letter.blocks.flatMap((b) => (b.kind === "paragraph" ? [b.text] : []));
    expect(texts.filter((t) => t.startsWith("Heeft u vragen"))).toEqual([]);
    expect(texts).toContain(
      "Wij verzoeken u het openstaande bedrag van € 3.000,00 binnen 14 dagen, te rekenen vanaf de dag na ontvangst van deze brief, over te maken op rekening NL91 ABNA 0417 1643 00 ten name van Acme BV, onder vermelding van betalingskenmerk 2026-000042.",
    );
  });

  it("always states the term, the consequence and the scale's costs of the outstanding sum (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000_000_000 }), { minLength: 1, maxLength: 8 }),
        (amounts) => {
          const letter = composeWikLetter({
            ...input,
            invoices: amounts.map((amountCents, i) => ({
              invoiceNumber: `F-${i}`,
              invoiceDate: "2026-10-01",
              dueDate: "2026-10-15",
              amountCents,
            })),
          });
          const sum = amounts.reduce((a, b) => a + b, 0);
          const costs = calculateCollectionCosts(sum).collection_costs_cents;
          const texts = letter.blocks.flatMap((b) => (b.kind === "paragraph" ? [b.text] : []));
          expect(letter.collectionCostsCents).toBe(costs);
          expect(texts.some((t) => t.includes("binnen 14 dagen, te rekenen vanaf de dag na ontvangst"))).toBe(
            true,
          );
          const consequence = texts.filter((t) => t.startsWith("Betaalt u niet binnen deze termijn"));
          expect(consequence).toHaveLength(1);
          expect(consequence[0]?.endsWith(`incassokosten verschuldigd van ${euroOf(costs)}.`)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("renderWikLetterPdf", () => {
  it("writes a PDF whose extracted text holds the names, address, invoices, term, consequence and costs", async () => {
    const bytes = await renderWikLetterPdf(composeWikLetter(input), {
      date: new Date("2026-11-21T09:00:00Z"),
    });
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const text = await textOf(bytes);
    expect(text).toBe(
      [
        "Incassobureau Voorbeeld B.V. Keizersgracht 100 1015 AA Amsterdam",
        "Telefoon: 020 123 4567 E-mail: info@voorbeeld.nl KvK-nummer: 12345678",
        "Jan de Vries Teststraat 10 A 9999 ZZ Testdorp",
        "Datum: 21 november 2026 Dossiernummer: 2026-000042 Referentie Acme BV: R-77",
        "Betreft: aanmaning (veertiendagenbrief) Geachte heer, mevrouw,",
        "Volgens de administratie van Acme BV zijn de onderstaande facturen nog niet betaald.",
        "Factuur Factuurdatum Vervaldatum Bedrag",
        "F-1 1 oktober 2026 15 oktober 2026 € 1.000,00",
        "F-2 2 oktober 2026 16 oktober 2026 € 2.000,00",
        "Totaal hoofdsom € 3.000,00",
        "Wij verzoeken u het openstaande bedrag van € 3.000,00 binnen 14 dagen, te rekenen vanaf de dag na ontvangst van deze brief, over te maken op rekening NL91 ABNA 0417 1643 00 (BIC ABNANL2A) ten name van Incassobureau Voorbeeld B.V., onder vermelding van betalingskenmerk 2026-000042.",
        "Betaalt u niet binnen deze termijn, dan wordt de vordering verder geïncasseerd en bent u naast het openstaande bedrag buitengerechtelijke incassokosten verschuldigd van € 425,00.",
        "Dit bedrag volgt uit de staffel van het Besluit vergoeding voor buitengerechtelijke incassokosten, berekend over de openstaande hoofdsommen samen (€ 3.000,00, artikel 6:96 lid 7 BW).",
        "Deze brief is de aanmaning bedoeld in artikel 6:96 lid 6 van het Burgerlijk Wetboek. Heeft u inmiddels betaald, dan kunt u deze brief als niet verzonden beschouwen.",
        "Heeft u vragen over deze brief, neem dan contact met ons op telefonisch via 020 123 4567 of per e-mail via info@voorbeeld.nl, onder vermelding van het dossiernummer.",
        "Met vriendelijke groet, Incassobureau Voorbeeld B.V. namens Acme BV",
      ].join(" "),
    );
  });

  it("passes pdf-guard's rules checker as a wik_letter without any warning", async () => {
    const bytes = await renderWikLetterPdf(composeWikLetter(input));
    const inspected = await inspectPdf(bytes);
    if (!inspected.ok) throw new Error(inspected.message);
    const warnings = await runDocumentCheck(createRulesDocumentChecker(), {
      debtors: [
        {
          type: "individual",
          company_name: null,
          first_name: "Jan",
          middle_name: "de",
          last_name: "Vries",
          customer_number: null,
          address,
        },
      ],
      invoices: input.invoices.map((i) => ({
        invoice_number: i.invoiceNumber,
        invoice_date: i.invoiceDate,
        due_date: i.dueDate,
        payment_term_days: null,
        amount_cents: i.amountCents,
        description: null,
      })),
      attachments: [
        {
          index: 0,
          filename: "aanmaning.pdf",
          document_type: "wik_letter",
          text: inspected.text,
          page_count: inspected.page_count,
        },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it("keeps a name outside the standard font readable: accents dropped, unknown letters as ?", async () => {
    const bytes = await renderWikLetterPdf(
      composeWikLetter({
        ...input,
        debtors: [{ name: "Zoë Łęcka Ćosić", address: null }],
      }),
    );
    expect(await textOf(bytes)).toContain("Zoë ?ecka Cosic Datum: 21 november 2026");
  });

  it("continues on a second page when the invoices do not fit on one", async () => {
    const invoices = Array.from({ length: 50 }, (_, i) => ({
      invoiceNumber: `F-${i + 1}`,
      invoiceDate: "2026-10-01",
      dueDate: "2026-10-15",
      amountCents: 1000,
    }));
    const bytes = await renderWikLetterPdf(composeWikLetter({ ...input, invoices }));
    const inspected = await inspectPdf(bytes);
    expect(inspected.ok && inspected.page_count).toBe(2);
    expect(await textOf(bytes)).toContain(
      "F-50 1 oktober 2026 15 oktober 2026 € 10,00 Totaal hoofdsom € 500,00",
    );
  });
});
