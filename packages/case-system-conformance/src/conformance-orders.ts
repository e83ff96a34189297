import type { CasePlacementInput } from "@incasso/core";
import { PDFDocument, StandardFonts } from "pdf-lib";

/**
 * A CreateOrder body of the kit: an incasso order against fictitious business debtors (the
 * reserved test postal code 9999 ZZ in "Testdorp"), one per customer number, with two invoices.
 *
 * @example
 * const body = conformanceOrder(["K-1"], { reference: "R-1" });
 */
export function conformanceOrder(
  customerNumbers: string[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: "incasso",
    reference: "R-CONFORMANCE",
    debtors: customerNumbers.map((customerNumber, i) => ({
      type: "business",
      company_name: `Voorbeeld ${i + 1} B.V.`,
      customer_number: customerNumber,
      address: {
        street: "Teststraat",
        house_number: String(10 + i),
        postal_code: "9999 ZZ",
        city: "Testdorp",
      },
    })),
    invoices: [
      { invoice_number: "F-1", invoice_date: "2026-09-01", due_date: "2026-09-15", amount_cents: 125_000 },
      { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20_000 },
    ],
    ...overrides,
  };
}

/**
 * The principal of {@link conformanceOrder}: the sum of its invoices.
 *
 * @example
 * expect(balance).toBeGreaterThanOrEqual(CONFORMANCE_ORDER_PRINCIPAL_CENTS);
 */
export const CONFORMANCE_ORDER_PRINCIPAL_CENTS = 145_000;

/**
 * A placement as the order engine would hand it to `placeOnCase` for {@link conformanceOrder}, for
 * the tests that call the port directly.
 *
 * @example
 * const input = conformancePlacement({ orderId: "ord_0123456789abcdef", organisationId, creditorName: "Acme", customerNumber: "K-1", at: new Date() });
 */
export function conformancePlacement(input: {
  orderId: string;
  organisationId: string;
  creditorName: string;
  customerNumber: string;
  at: Date;
}): CasePlacementInput {
  return {
    orderId: input.orderId,
    organisationId: input.organisationId,
    creditor: { id: null, name: input.creditorName },
    type: "incasso",
    reference: "R-PORT",
    title: "Conformance placement",
    description: null,
    udfFields: {},
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        first_name: null,
        middle_name: null,
        last_name: null,
        customer_number: input.customerNumber,
        email: null,
        phone: null,
        name: "Voorbeeld B.V.",
      },
    ],
    note: null,
    at: input.at,
    addresses: [
      {
        debtorIndex: 0,
        address: {
          street: "Teststraat",
          house_number: "10",
          house_number_suffix: null,
          postal_code: "9999 ZZ",
          city: "Testdorp",
          country: "NL",
        },
      },
    ],
    invoices: [
      {
        invoiceIndex: 0,
        invoice: {
          invoice_number: "F-1",
          invoice_date: "2026-09-01",
          due_date: "2026-09-15",
          payment_term_days: null,
          amount_cents: 125_000,
          description: null,
        },
      },
    ],
  };
}

/**
 * A one-page PDF with a line of text, base64: an attachment the API's document checks accept.
 *
 * @example
 * const content_base64 = await conformancePdfBase64();
 */
export async function conformancePdfBase64(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc
    .addPage([595, 842])
    .drawText("Factuur F-1, Voorbeeld B.V., EUR 1.250,00", { x: 50, y: 780, size: 12, font });
  const bytes = await doc.save();
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
