import { randomBytes } from "node:crypto";
import { type CaseItemsInput, type CaseOrderInput, issueApiKey } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import type { CaseChange } from "./case-change.js";
import {
  businessDebtor,
  caseAddress,
  caseInvoice,
  caseOrderInput,
} from "./internal/testing/case-order-input.js";
import { countingDatabase } from "./internal/testing/counting-database.js";

// addItems, the batched item call of the CaseSystem port (decision
// case-system-port-batched-items): every address and invoice of an order in one statement, with
// the per-item calls' idempotency and events. On PGlite, and on PostgreSQL whenever a test
// database is configured (in a schema of its own, dropped afterwards).
const targets: { name: string; open: () => Promise<SqlStore>; schema?: string }[] = [
  { name: "PGlite", open: () => openStore() },
];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `case_items_${randomBytes(6).toString("hex")}`;
  targets.push({ name: "PostgreSQL", open: () => openStore({ databaseUrl: url, schema }), schema });
}

const at = new Date("2026-11-21T10:00:00.000Z");
const address = caseAddress;
const invoice = (number: string, amount = 125_000) =>
  caseInvoice(number, amount, number === "F-1" ? "Levering oktober" : null);

describe.each(targets)("addItems of the built-in case system on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  beforeAll(async () => {
    store = await target.open();
    organisationId = (await issueApiKey(store, { organisation: "Items BV", mode: "live" })).record
      .organisationId;
  });
  afterAll(async () => {
    if (target.schema) await store.database.query(`DROP SCHEMA ${target.schema} CASCADE`);
    await store.close();
  });

  let n = 0;
  function order(customerNumber: string, debtors = 1): CaseOrderInput {
    n++;
    return caseOrderInput({
      orderId: `ord_${(0xa000 + n).toString(16).padStart(16, "0")}`,
      organisationId,
      creditor: { id: null, name: "Items BV" },
      reference: `I-${n}`,
      at,
      debtors: Array.from({ length: debtors }, (_, i) =>
        businessDebtor(`Debiteur ${i + 1} B.V.`, i === 0 ? customerNumber : `${customerNumber}-${i}`),
      ),
    });
  }
  const items = (o: CaseOrderInput, caseNumber: string, invoiceNumbers: string[]): CaseItemsInput => ({
    orderId: o.orderId,
    caseNumber,
    addresses: o.debtors.map((_, debtorIndex) => ({
      debtorIndex,
      address: address(`Straat ${debtorIndex + 1}`),
    })),
    invoices: invoiceNumbers.map((number, invoiceIndex) => ({ invoiceIndex, invoice: invoice(number) })),
  });
  async function eventsOf(caseNumber: string) {
    const { rows } = await store.database.query<{ type: string; payload: string }>(
      "SELECT type, payload FROM webhook_events WHERE payload::json->'data'->>'case_number' = $1 ORDER BY created_at, id",
      [caseNumber],
    );
    return rows.map((r) => ({ type: r.type, data: (JSON.parse(r.payload) as { data: unknown }).data }));
  }

  it("records every address and invoice of a new case's order in one statement without a transaction, and a repeat adds nothing", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const first = order("NEW", 2);
    const { caseNumber } = await cases.openCase(first);
    const counted = countingDatabase(store.database);
    const measured = createBuiltInCaseSystem({ store: { database: counted.database }, now: () => at });
    await measured.addItems(items(first, caseNumber, ["F-1", "F-2", "F-3"]));
    expect(counted.seen).toEqual({ statements: 1, transactions: 0, batches: 0 });
    await measured.addItems(items(first, caseNumber, ["F-1", "F-2", "F-3"]));
    const kept = await cases.getCase({ caseNumber });
    expect(kept?.debtors.map((d) => [d.position, d.address])).toEqual([
      [0, address("Straat 1")],
      [1, address("Straat 2")],
    ]);
    expect(kept?.invoices).toEqual([
      {
        orderId: first.orderId,
        position: 0,
        invoiceNumber: "F-1",
        invoiceDate: "2026-10-01",
        dueDate: "2026-10-15",
        amountCents: 125_000,
        description: "Levering oktober",
      },
      {
        orderId: first.orderId,
        position: 1,
        invoiceNumber: "F-2",
        invoiceDate: "2026-10-01",
        dueDate: "2026-10-15",
        amountCents: 125_000,
        description: null,
      },
      {
        orderId: first.orderId,
        position: 2,
        invoiceNumber: "F-3",
        invoiceDate: "2026-10-01",
        dueDate: "2026-10-15",
        amountCents: 125_000,
        description: null,
      },
    ]);
    expect(await eventsOf(caseNumber)).toEqual([]);
  });

  it("records what the per-item calls record", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const batched = order("SAME-A", 2);
    const single = order("SAME-B", 2);
    const a = await cases.openCase(batched);
    const b = await cases.openCase(single);
    await cases.addItems(items(batched, a.caseNumber, ["F-1", "F-2"]));
    for (const item of items(single, b.caseNumber, ["F-1", "F-2"]).addresses)
      await cases.setDebtorAddress({ orderId: single.orderId, caseNumber: b.caseNumber, ...item });
    for (const item of items(single, b.caseNumber, ["F-1", "F-2"]).invoices)
      await cases.addInvoice({ orderId: single.orderId, caseNumber: b.caseNumber, ...item });
    const kept = async (caseNumber: string) => {
      const { rows } = await store.database.query(
        `SELECT 'debtor' AS item, position, street, house_number, house_number_suffix, postal_code, city, country,
           address_set_at::text AS at, NULL AS invoice_number, NULL AS amount_cents
         FROM case_debtors WHERE case_number = $1
         UNION ALL
         SELECT 'invoice', position, NULL, NULL, NULL, NULL, NULL, NULL, added_at::text, invoice_number,
           amount_cents::text
         FROM case_invoices WHERE case_number = $1
         ORDER BY 1, 2`,
        [caseNumber],
      );
      return rows;
    };
    const rows = await kept(a.caseNumber);
    expect(rows).toHaveLength(4);
    expect(rows).toEqual(await kept(b.caseNumber));
  });

  it("sends invoice.updated for each invoice a merged order adds, in one transaction; a repeat sends nothing", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const opening = order("MERGE");
    const { caseNumber } = await cases.openCase(opening);
    await cases.addItems(items(opening, caseNumber, ["F-1"]));
    const follow = order("MERGE");
    await cases.joinCase({ ...follow, caseNumber });
    const counted = countingDatabase(store.database);
    const measured = createBuiltInCaseSystem({ store: { database: counted.database }, now: () => at });
    await measured.addItems(items(follow, caseNumber, ["F-2", "F-3"]));
    // The statement outside a transaction writes nothing for a merged order; the transaction
    // writes the items and both events.
    expect(counted.seen).toEqual({ statements: 4, transactions: 1, batches: 0 });
    await measured.addItems(items(follow, caseNumber, ["F-2", "F-3"]));
    const merged = {
      order_id: follow.orderId,
      case_number: caseNumber,
      reference: follow.reference,
      case_event: "case_invoices",
    };
    expect(await eventsOf(caseNumber)).toEqual([
      { type: "invoice.updated", data: merged },
      { type: "invoice.updated", data: merged },
    ]);
    expect((await cases.getCase({ caseNumber }))?.invoices.map((i) => i.invoiceNumber)).toEqual([
      "F-1",
      "F-2",
      "F-3",
    ]);
  });

  it("writes a merged order in one statement when webhook events are off", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const opening = order("QUIET");
    const { caseNumber } = await cases.openCase(opening);
    const follow = order("QUIET");
    await cases.joinCase({ ...follow, caseNumber });
    const counted = countingDatabase(store.database);
    const quiet = createBuiltInCaseSystem({
      store: { database: counted.database },
      now: () => at,
      webhookEvents: false,
    });
    await quiet.addItems(items(follow, caseNumber, ["F-1"]));
    expect(counted.seen).toEqual({ statements: 1, transactions: 0, batches: 0 });
    expect(await eventsOf(caseNumber)).toEqual([]);
    expect((await cases.getCase({ caseNumber }))?.invoices.map((i) => i.orderId)).toEqual([follow.orderId]);
  });

  it("hands the listener one change per address and per inserted invoice; a throwing listener rolls every item back", async () => {
    const seen: CaseChange[] = [];
    let fail = false;
    const cases = createBuiltInCaseSystem({
      store,
      now: () => at,
      onChange: async (change) => {
        if (fail) throw new Error("listener down");
        seen.push(change);
      },
    });
    const first = order("LISTEN", 2);
    const { caseNumber } = await cases.openCase(first);
    await cases.addItems({ ...items(first, caseNumber, ["F-1", "F-2"]), invoices: [] });
    await cases.addItems(items(first, caseNumber, ["F-1", "F-2"]));
    const owner = { caseNumber, organisationId, orderId: first.orderId, reference: first.reference, at };
    expect(seen).toEqual([
      { ...owner, kind: "case_opened" },
      { ...owner, kind: "debtor_address_set", debtorIndex: 0 },
      { ...owner, kind: "debtor_address_set", debtorIndex: 1 },
      // The repeat sets the addresses again (as setDebtorAddress does); the invoices are new.
      { ...owner, kind: "debtor_address_set", debtorIndex: 0 },
      { ...owner, kind: "debtor_address_set", debtorIndex: 1 },
      { ...owner, kind: "invoice_added", invoiceNumber: "F-1", merged: false },
      { ...owner, kind: "invoice_added", invoiceNumber: "F-2", merged: false },
    ]);
    const second = order("LISTEN-2");
    const opened = await cases.openCase(second);
    fail = true;
    await expect(cases.addItems(items(second, opened.caseNumber, ["F-1"]))).rejects.toThrow("listener down");
    const kept = await cases.getCase({ caseNumber: opened.caseNumber });
    expect(kept?.debtors.map((d) => d.address)).toEqual([null]);
    expect(kept?.invoices).toEqual([]);
  });

  it("refuses items of an order that is not on the case, and an address of a debtor the order does not have", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const first = order("NOT-ON");
    const { caseNumber } = await cases.openCase(first);
    const stranger = { ...items(first, caseNumber, ["F-1"]), orderId: "ord_ffffffffffffffff" };
    await expect(cases.addItems(stranger)).rejects.toMatchObject({
      code: "order_not_on_case",
      message: `Order ord_ffffffffffffffff is not on case ${caseNumber}.`,
    });
    const other = await cases.openCase(order("NOT-ON-2"));
    await expect(cases.addItems(items(first, other.caseNumber, ["F-1"]))).rejects.toMatchObject({
      code: "order_not_on_case",
    });
    expect((await cases.getCase({ caseNumber }))?.invoices).toEqual([]);
    const beyond = items(first, caseNumber, ["F-1"]);
    beyond.addresses.push({ debtorIndex: 3, address: address("Nergens") });
    await expect(cases.addItems(beyond)).rejects.toMatchObject({
      code: "order_not_on_case",
      message: `Order ${first.orderId} has no debtor 3 on case ${caseNumber}.`,
    });
  });
});
