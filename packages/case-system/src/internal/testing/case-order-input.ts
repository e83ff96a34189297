import type { CaseOrderInput, CasePlacementInput, NormalisedAddress, NormalisedInvoice } from "@incasso/core";

type CaseDebtor = CaseOrderInput["debtors"][number];

/**
 * A business debtor as the order engine hands it to the case system, for the case-system tests.
 *
 * @example
 * businessDebtor("Voorbeeld B.V.", "K-1").customer_number; // "K-1"
 */
export function businessDebtor(name: string, customerNumber: string | null): CaseDebtor {
  return {
    type: "business",
    name,
    company_name: name,
    first_name: null,
    middle_name: null,
    last_name: null,
    customer_number: customerNumber,
    email: null,
    phone: null,
  };
}

/**
 * An order's part of a case for the case-system tests: an incasso order of a creditor without an
 * id, with the engine's generated title and no description, custom fields or note unless given.
 *
 * @example
 * const order = caseOrderInput({ orderId: "ord_0000000000000001", organisationId, reference: "R-1", at,
 *   debtors: [businessDebtor("Voorbeeld B.V.", "K-1")] });
 */
export function caseOrderInput(
  input: Pick<CaseOrderInput, "orderId" | "organisationId" | "reference" | "at" | "debtors"> &
    Partial<CaseOrderInput>,
): CaseOrderInput {
  return {
    creditor: { id: null, name: "Test BV" },
    type: "incasso",
    title: "Overeenkomst van opdracht voor factuur F-1",
    description: null,
    udfFields: {},
    note: null,
    ...input,
  };
}

/**
 * A Dutch address in normalised form, for the case-system tests.
 *
 * @example
 * caseAddress("Straat 1").postal_code; // "9999 ZZ"
 */
export function caseAddress(street: string) {
  return {
    street,
    house_number: "10",
    house_number_suffix: null,
    postal_code: "9999 ZZ",
    city: "Testdorp",
    country: "NL",
  };
}

/**
 * A normalised invoice of 1 October 2026, due 15 October, for the case-system tests.
 *
 * @example
 * caseInvoice("F-1", 125_000).amount_cents; // 125000
 */
export function caseInvoice(number: string, amount = 125_000, description: string | null = null) {
  return {
    invoice_number: number,
    invoice_date: "2026-10-01",
    due_date: "2026-10-15",
    payment_term_days: 14,
    amount_cents: amount,
    description,
  };
}

/**
 * The placement of an order's part of a case with its invoices (and the addresses given, by
 * debtor position), for the case-system tests that place an order through `placeOnCase`.
 *
 * @example
 * await cases.placeOnCase(withItems(order, [caseInvoice("F-1")]));
 */
export function withItems(
  order: CaseOrderInput,
  invoices: NormalisedInvoice[] = [],
  addresses: NormalisedAddress[] = [],
): CasePlacementInput {
  return {
    ...order,
    addresses: addresses.map((address, debtorIndex) => ({ debtorIndex, address })),
    invoices: invoices.map((invoice, invoiceIndex) => ({ invoiceIndex, invoice })),
  };
}
