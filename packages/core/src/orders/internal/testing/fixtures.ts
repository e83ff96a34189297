// Test fixtures: fictitious debtors (the reserved test postal code 9999 ZZ, place "Testdorp").

/** A minimal valid CreateOrder body; every call returns a fresh copy. */
export function validBody(): Record<string, unknown> & {
  debtors: Record<string, unknown>[];
  invoices: Record<string, unknown>[];
} {
  return {
    type: "pre-incasso",
    debtors: [
      {
        type: "business",
        company_name: "Test B.V.",
        customer_number: "K-1001",
        address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      {
        invoice_number: "F-2026-001",
        invoice_date: "2026-10-01",
        payment_term_days: 30,
        amount_cents: 125000,
      },
    ],
  };
}

/** An individual debtor. */
export function individual(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "individual",
    first_name: "Jan",
    middle_name: "de",
    last_name: "Vries",
    address: { street: "Teststraat", house_number: "12", postal_code: "9999 ZZ", city: "Testdorp" },
    ...overrides,
  };
}

/** An attachment (its content is not judged by the validator). */
export function attachment(documentType: string | null = "invoice"): Record<string, unknown> {
  return { filename: "factuur.pdf", content_base64: "JVBERi0xLjcK", document_type: documentType };
}

/** The context used by most tests. */
export const CTX = { today: "2026-11-21", udfDefinitions: [] } as const;
