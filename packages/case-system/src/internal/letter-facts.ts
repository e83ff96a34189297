import type { Executor } from "@incasso/store-sql";
import type { CostsPayment } from "../case-collection-costs.js";
import type { LetterDetails } from "../letter-details.js";
import type { WikLetterInput } from "../wik-letter.js";
import { mergeDebtors } from "./merge-debtors.js";

/**
 * What the 14-day letter of a case prints, and who its event names, read in one statement: the
 * creditor, the debtors with their addresses, the invoices, the payments so far, the order (when
 * the letter is an order's) and whether that order has its letter already. Everything else of the
 * case (notes, tasks, attachments, other letters) the letter does not need.
 */
export interface LetterFacts {
  caseNumber: string;
  organisationId: string;
  creditorName: string;
  /** The case's reference (the opening order's). */
  caseReference: string | null;
  openedByOrderId: string;
  /** The order asked about, when it is on this case; null otherwise or when none was asked about. */
  order: { orderId: string; reference: string | null } | null;
  /** The id of the order's letter when it exists already. */
  existingLetterId: string | null;
  debtors: WikLetterInput["debtors"];
  invoices: WikLetterInput["invoices"];
  /** ISO instant of the newest invoice: the letter covers the claims added up to it. */
  claimsThrough: string | null;
  /** Every payment booked on the case; the letter counts those received before it (`paidBefore`). */
  payments: CostsPayment[];
  /** The organisation's letter details (decision case-system-letter-details); null when never set. */
  letterDetails: Omit<LetterDetails, "updated_at"> | null;
}

interface FactsRow {
  case_number: string;
  organisation_id: string;
  creditor_name: string;
  case_reference: string | null;
  opened_by_order_id: string;
  order_id: string | null;
  order_reference: string | null;
  letter_id: string | null;
  debtors: unknown;
  invoices: unknown;
  claims_through: Date | string | null;
  payments: unknown;
  letter_details: unknown;
}

interface DebtorJson {
  order_id: string;
  position: number;
  type: "business" | "individual";
  customer_number: string | null;
  name: string;
  address_set: boolean;
  street: string | null;
  house_number: string | null;
  house_number_suffix: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
}

interface InvoiceJson {
  invoice_number: string;
  invoice_date: string;
  due_date: string;
  amount_cents: number | string;
}

const parsed = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

// Debtors and invoices in the order the case shows them (internal/case-details.ts).
const FACTS = `SELECT c.case_number, c.organisation_id, c.creditor_name, c.reference AS case_reference,
    c.opened_by_order_id, o.order_id, o.reference AS order_reference,
    (SELECT l.id FROM case_letters l WHERE l.order_id = $2) AS letter_id,
    (SELECT COALESCE(json_agg(json_build_object('order_id', d.order_id, 'position', d.position, 'type', d.type,
        'customer_number', d.customer_number, 'name', d.name, 'address_set', d.address_set_at IS NOT NULL,
        'street', d.street, 'house_number', d.house_number, 'house_number_suffix', d.house_number_suffix,
        'postal_code', d.postal_code, 'city', d.city, 'country', d.country)
        ORDER BY dor.added_at, d.order_id, d.position), '[]')
      FROM case_debtors d LEFT JOIN case_orders dor ON dor.order_id = d.order_id
      WHERE d.case_number = c.case_number) AS debtors,
    (SELECT COALESCE(json_agg(json_build_object('invoice_number', i.invoice_number,
        'invoice_date', i.invoice_date::text, 'due_date', i.due_date::text, 'amount_cents', i.amount_cents)
        ORDER BY i.added_at, i.order_id, i.position), '[]')
      FROM case_invoices i WHERE i.case_number = c.case_number) AS invoices,
    (SELECT max(i.added_at) FROM case_invoices i WHERE i.case_number = c.case_number) AS claims_through,
    (SELECT COALESCE(json_agg(json_build_object('amount_cents', p.amount_cents, 'payment_date', p.payment_date::text)
        ORDER BY p.payment_date, p.id), '[]')
      FROM case_payments p WHERE p.case_number = c.case_number) AS payments,
    (SELECT json_build_object('sender_name', ld.sender_name, 'street', ld.street, 'postal_code', ld.postal_code,
        'city', ld.city, 'iban', ld.iban, 'bic', ld.bic, 'kvk_number', ld.kvk_number, 'phone', ld.phone,
        'email', ld.email)
      FROM case_letter_details ld WHERE ld.organisation_id = c.organisation_id) AS letter_details
  FROM cases c LEFT JOIN case_orders o ON o.case_number = c.case_number AND o.order_id = $2::text
  WHERE c.case_number = $1`;

/** The facts of the case's letter (of `orderId`'s letter when given); undefined for an unknown case. */
export async function selectLetterFacts(
  db: Executor,
  query: { caseNumber: string; orderId?: string },
): Promise<LetterFacts | undefined> {
  const { rows } = await db.query<FactsRow>(FACTS, [query.caseNumber, query.orderId ?? null]);
  const r = rows[0];
  if (r === undefined) return undefined;
  return {
    caseNumber: r.case_number,
    organisationId: r.organisation_id,
    creditorName: r.creditor_name,
    caseReference: r.case_reference,
    openedByOrderId: r.opened_by_order_id,
    order: r.order_id === null ? null : { orderId: r.order_id, reference: r.order_reference },
    existingLetterId: r.letter_id,
    // Each debtor once, at its newest address (internal/merge-debtors.ts, as the case shows them).
    debtors: mergeDebtors(
      parsed<DebtorJson[]>(r.debtors).map((d) => ({
        orderId: d.order_id,
        position: Number(d.position),
        type: d.type,
        name: d.name,
        customerNumber: d.customer_number,
        email: null,
        phone: null,
        address: d.address_set
          ? {
              street: String(d.street),
              house_number: String(d.house_number),
              house_number_suffix: d.house_number_suffix,
              postal_code: String(d.postal_code),
              city: String(d.city),
              country: String(d.country),
            }
          : null,
        addressSetAt: null,
      })),
    ).map((d) => ({ name: d.name, address: d.address })),
    invoices: parsed<InvoiceJson[]>(r.invoices).map((i) => ({
      invoiceNumber: i.invoice_number,
      invoiceDate: i.invoice_date,
      dueDate: i.due_date,
      amountCents: Number(i.amount_cents),
    })),
    claimsThrough: r.claims_through === null ? null : new Date(r.claims_through).toISOString(),
    payments: parsed<{ amount_cents: number | string; payment_date: string }[]>(r.payments).map((p) => ({
      amountCents: Number(p.amount_cents),
      paymentDate: p.payment_date,
    })),
    letterDetails:
      r.letter_details === null ? null : parsed<Omit<LetterDetails, "updated_at">>(r.letter_details),
  };
}
