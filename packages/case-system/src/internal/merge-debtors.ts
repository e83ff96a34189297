/** A debtor's address as the case keeps it. */
export interface DebtorAddress {
  street: string;
  house_number: string;
  house_number_suffix: string | null;
  postal_code: string;
  city: string;
  country: string;
}

/** One debtor row as an order brought it onto the case (rows are kept per order and position). */
export interface DebtorRow {
  orderId: string;
  position: number;
  type: "business" | "individual";
  name: string;
  customerNumber: string | null;
  email: string | null;
  phone: string | null;
  address: DebtorAddress | null;
  /** When the address was set; null without one. */
  addressSetAt: Date | null;
}

/**
 * A debtor of the case, listed once however many orders named it: the first order's row with the
 * newest address, contact details and the addresses it had before (oldest first).
 */
export interface MergedDebtor extends Omit<DebtorRow, "addressSetAt"> {
  /** Every order that named this debtor, in the order they came onto the case. */
  orderIds: string[];
  /** Earlier addresses, oldest first, each with the order that brought it and when it was set. */
  previousAddresses: { address: DebtorAddress; orderId: string; setAt: Date | null }[];
}

function addressKey(a: DebtorAddress | null): string {
  return a === null
    ? ""
    : JSON.stringify([a.street, a.house_number, a.house_number_suffix, a.postal_code, a.city, a.country]);
}

// Issue 31: a follow-up order that names the same debtor (same customer number and name) adds no
// second debtor to the case. Without a customer number only the same name at the same address is
// known to be the same debtor.
function identity(row: DebtorRow): string {
  return row.customerNumber !== null
    ? JSON.stringify(["customer", row.type, row.customerNumber, row.name])
    : JSON.stringify(["name", row.type, row.name, addressKey(row.address)]);
}

/**
 * The debtors of a case, each once: rows of the same debtor (same customer number and name, or
 * without a customer number the same name and address) are merged; a changed address becomes the
 * debtor's address and the earlier one is kept in `previousAddresses`. `rows` must come in the
 * order their orders came onto the case.
 *
 * @example
 * mergeDebtors([row1, row2SameDebtorNewAddress]);
 * // [{ ...row1, address: row2.address, orderIds: [o1, o2], previousAddresses: [{ address: row1.address, ... }] }]
 */
export function mergeDebtors(rows: ReadonlyArray<DebtorRow>): MergedDebtor[] {
  // setAt and addressOrderId: when and by which order the current address came, for the history.
  const merged = new Map<string, MergedDebtor & { setAt: Date | null; addressOrderId: string }>();
  for (const row of rows) {
    const key = identity(row);
    const { addressSetAt, ...fields } = row;
    const found = merged.get(key);
    if (found === undefined) {
      merged.set(key, {
        ...fields,
        orderIds: [row.orderId],
        previousAddresses: [],
        setAt: addressSetAt,
        addressOrderId: row.orderId,
      });
      continue;
    }
    if (!found.orderIds.includes(row.orderId)) found.orderIds.push(row.orderId);
    found.email = row.email ?? found.email;
    found.phone = row.phone ?? found.phone;
    // An order without an address (its address step failed) leaves the known one.
    if (row.address !== null && addressKey(row.address) !== addressKey(found.address)) {
      if (found.address !== null) {
        found.previousAddresses.push({
          address: found.address,
          orderId: found.addressOrderId,
          setAt: found.setAt,
        });
      }
      found.address = row.address;
      found.setAt = addressSetAt;
      found.addressOrderId = row.orderId;
    }
  }
  return [...merged.values()].map(({ setAt: _s, addressOrderId: _o, ...debtor }) => debtor);
}
