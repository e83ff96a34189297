// The order the order benchmarks send: one business debtor with its own customer number and three
// invoices (issue 8: "a 3-invoice order"), optionally with one attachment.

/** The JSON body of one benchmark order. */
export function benchOrderBody(input: {
  type: "pre-incasso" | "incasso";
  reference: string;
  customerNumber: string;
  /** Tells the invoice numbers of one order from another's. */
  n: number;
  attachment?: string;
}): string {
  const { n } = input;
  return JSON.stringify({
    type: input.type,
    reference: input.reference,
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        customer_number: input.customerNumber,
        address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `F-${n}-1`, invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
      { invoice_number: `F-${n}-2`, invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
      { invoice_number: `F-${n}-3`, invoice_date: "2026-10-01", payment_term_days: 30, amount_cents: 5050 },
    ],
    ...(input.attachment
      ? {
          attachments: [
            { filename: "factuur.pdf", content_base64: input.attachment, document_type: "invoice" },
          ],
        }
      : {}),
  });
}
