// Request bodies of the tests: fictitious debtors only (the reserved test postal code 9999 ZZ, place
// "Testdorp"), as the server's own suites use.
import type { CreateOrder, Invoice } from "../../wire-types.js";

/**
 * One invoice of `amount_cents`.
 *
 * @example
 * orderBody("K-1", { invoices: [invoice(0)] }); // 422 invoices[0].amount_cents too_small
 */
export function invoice(amount_cents: number): Invoice {
  return { invoice_number: "F-9", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents };
}

/**
 * A valid pre-incasso order against one business; `customerNumber` keeps tests' cases apart.
 *
 * @example
 * await client.orders.create(orderBody("K-1", { reference: "R-1" }));
 */
export function orderBody(customerNumber: string, overrides: Partial<CreateOrder> = {}): CreateOrder {
  return {
    type: "pre-incasso",
    reference: `R-${customerNumber}`,
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        customer_number: customerNumber,
        address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
      { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
    ],
    ...overrides,
  };
}
