import type { CaseItemsInput } from "@incasso/core";
import type { Executor } from "@incasso/store-sql";
import type { Owner } from "./case-queries.js";

/**
 * What {@link addOrderItems} did. `written` false: the order joined a case another order opened
 * and the call was told to leave such an order alone (`writeMerged: false`), so nothing was written.
 */
export interface OrderItemsResult {
  owner: Owner & { merged: boolean };
  written: boolean;
  /** Positions of the debtors whose address this call recorded. */
  addresses: number[];
  /** Positions of the invoices this call inserted; the others were there already. */
  invoices: number[];
}

interface Row {
  case_number: string;
  organisation_id: string;
  order_id: string;
  reference: string | null;
  merged: boolean;
  written: boolean;
  addresses: number[] | string;
  invoices: number[] | string;
}

// One statement for every address and invoice of an order (decision
// case-system-port-batched-items): the order's row on the case (`o`) gates every write, so items
// are written only when the order is on that case, as in the per-item statements of
// case-queries.ts; `w` is `o` unless the order is merged and the caller wants merged orders left
// alone (their invoices send webhook events, which need a transaction). An invoice is inserted at
// most once (the primary key on order id and position); an address is set again on a repeat, as
// setDebtorAddress does.
const ADD_ORDER_ITEMS = `WITH o AS (
    SELECT co.case_number, c.organisation_id, co.order_id, co.reference,
      c.opened_by_order_id <> co.order_id AS merged
    FROM case_orders co JOIN cases c ON c.case_number = co.case_number
    WHERE co.order_id = $1 AND co.case_number = $2),
  w AS (SELECT o.* FROM o WHERE $3::boolean OR NOT o.merged),
  a AS (
    UPDATE case_debtors d SET street = x.street, house_number = x.house_number,
      house_number_suffix = x.house_number_suffix, postal_code = x.postal_code, city = x.city,
      country = x.country, address_set_at = $4
    FROM w, json_to_recordset($5::json) AS x(position int, street text, house_number text,
      house_number_suffix text, postal_code text, city text, country text)
    WHERE d.order_id = w.order_id AND d.case_number = w.case_number AND d.position = x.position
    RETURNING d.position),
  i AS (
    INSERT INTO case_invoices (order_id, position, case_number, invoice_number, invoice_date, due_date,
      amount_cents, description, added_at)
    SELECT w.order_id, x.position, w.case_number, x.invoice_number, x.invoice_date::date, x.due_date::date,
      x.amount_cents, x.description, $4
    FROM w, json_to_recordset($6::json) AS x(position int, invoice_number text, invoice_date text,
      due_date text, amount_cents bigint, description text)
    ON CONFLICT (order_id, position) DO NOTHING
    RETURNING position)
  SELECT o.case_number, o.organisation_id, o.order_id, o.reference, o.merged,
    EXISTS (SELECT 1 FROM w) AS written,
    COALESCE((SELECT json_agg(a.position ORDER BY a.position) FROM a), '[]'::json) AS addresses,
    COALESCE((SELECT json_agg(i.position ORDER BY i.position) FROM i), '[]'::json) AS invoices
  FROM o`;

const positions = (value: number[] | string): number[] =>
  (typeof value === "string" ? (JSON.parse(value) as number[]) : value).map(Number);

/**
 * Records the addresses of an order's debtors and inserts its invoices in one statement. Returns
 * undefined when the order is not on the case (nothing written).
 *
 * @example
 * const done = await addOrderItems(db, { ...items, at: new Date(), writeMerged: true });
 */
export async function addOrderItems(
  db: Executor,
  input: CaseItemsInput & { at: Date; writeMerged: boolean },
): Promise<OrderItemsResult | undefined> {
  const addresses = input.addresses.map(({ debtorIndex, address: a }) => ({
    position: debtorIndex,
    street: a.street,
    house_number: a.house_number,
    house_number_suffix: a.house_number_suffix,
    postal_code: a.postal_code,
    city: a.city,
    country: a.country,
  }));
  const invoices = input.invoices.map(({ invoiceIndex, invoice: i }) => ({
    position: invoiceIndex,
    invoice_number: i.invoice_number,
    invoice_date: i.invoice_date,
    due_date: i.due_date,
    amount_cents: i.amount_cents,
    description: i.description,
  }));
  const { rows } = await db.query<Row>(ADD_ORDER_ITEMS, [
    input.orderId,
    input.caseNumber,
    input.writeMerged,
    input.at.toISOString(),
    JSON.stringify(addresses),
    JSON.stringify(invoices),
  ]);
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    owner: {
      caseNumber: row.case_number,
      organisationId: row.organisation_id,
      orderId: row.order_id,
      reference: row.reference,
      merged: Boolean(row.merged),
    },
    written: Boolean(row.written),
    addresses: positions(row.addresses),
    invoices: positions(row.invoices),
  };
}
