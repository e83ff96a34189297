import { type CasePlacementInput, chooseOpenCase } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import type { CaseChange } from "./case-change.js";
import { placementStatement } from "./internal/placement-queries.js";
import {
  businessDebtor,
  caseAddress,
  caseInvoice,
  caseOrderInput,
} from "./internal/testing/case-order-input.js";
import { countingDatabase } from "./internal/testing/counting-database.js";
import { closeTarget, newOrganisation, storeTargets } from "./internal/testing/store-targets.js";

// placeOnCase, the one-call placement of the CaseSystem port (decision
// case-system-port-one-call-placement): the lock per customer number, the lookup, the case or the
// join, the debtors, addresses, invoices and note in one transaction. On PGlite, and on
// PostgreSQL whenever a test database is configured (in a schema of its own, dropped afterwards).
const targets = storeTargets("case_place");

const at = new Date("2026-11-21T10:00:00.000Z");
const address = caseAddress;
const invoice = caseInvoice;

describe.each(targets)("placeOnCase of the built-in case system on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  beforeAll(async () => {
    store = await target.open();
    organisationId = await newOrganisation(store, "Placement BV");
  });
  afterAll(() => closeTarget(target, store));

  let n = 0;
  function order(
    customerNumbers: (string | null)[],
    invoiceNumbers: string[] = ["F-1"],
    extra: Partial<CasePlacementInput> = {},
  ): CasePlacementInput {
    n++;
    return {
      ...caseOrderInput({
        orderId: `ord_${(0xb000 + n).toString(16).padStart(16, "0")}`,
        organisationId,
        creditor: { id: null, name: "Placement BV" },
        reference: `P-${n}`,
        at,
        debtors: customerNumbers.map((customerNumber, i) =>
          businessDebtor(`Debiteur ${i + 1} B.V.`, customerNumber),
        ),
      }),
      addresses: customerNumbers.map((_, debtorIndex) => ({
        debtorIndex,
        address: address(`Straat ${debtorIndex + 1}`),
      })),
      invoices: invoiceNumbers.map((number, invoiceIndex) => ({ invoiceIndex, invoice: invoice(number) })),
      ...extra,
    };
  }
  async function eventsOf(caseNumber: string) {
    const { rows } = await store.database.query<{ type: string; payload: string }>(
      "SELECT type, payload FROM webhook_events WHERE payload::json->'data'->>'case_number' = $1 ORDER BY created_at, id",
      [caseNumber],
    );
    return rows.map((r) => ({ type: r.type, data: (JSON.parse(r.payload) as { data: unknown }).data }));
  }
  async function countOf(sql: string, params: unknown[]): Promise<number> {
    const { rows } = await store.database.query<{ n: number | string }>(sql, params);
    return Number(rows[0]?.n);
  }
  /** Every row the order has in the case tables, per table. */
  async function rowsOf(orderId: string) {
    const tables = ["case_orders", "case_debtors", "case_invoices", "case_notes"];
    const counts: Record<string, number> = {};
    for (const table of tables) {
      counts[table] = await countOf(`SELECT count(*) AS n FROM ${table} WHERE order_id = $1`, [orderId]);
    }
    counts.cases = await countOf("SELECT count(*) AS n FROM cases WHERE opened_by_order_id = $1", [orderId]);
    return counts;
  }

  it("opens a case with the debtors, addresses, invoices and note in one batch of two statements, sending no event", async () => {
    const counted = countingDatabase(store.database);
    const cases = createBuiltInCaseSystem({ store: { database: counted.database }, now: () => at });
    const input = order(["OPEN-1", null], ["F-1", "F-2"], {
      note: "Metadata van de opdracht:\nbron: test",
      udfFields: { dossier: "D-1" },
    });
    const placed = await cases.placeOnCase(input);
    expect(counted.seen).toEqual({ statements: 2, transactions: 0, batches: 1 });
    expect(placed).toEqual({
      caseNumber: expect.stringMatching(/^2026-\d{6}$/),
      caseNew: true,
      otherOpenCases: [],
    });
    const kept = await cases.getCase({ caseNumber: placed.caseNumber });
    expect(kept).toMatchObject({
      organisationId,
      openedByOrderId: input.orderId,
      reference: input.reference,
      udfFields: { dossier: "D-1" },
      status: "Nieuw",
      open: true,
      orders: [{ orderId: input.orderId, reference: input.reference }],
    });
    expect(kept?.debtors.map((d) => [d.position, d.customerNumber, d.address])).toEqual([
      [0, "OPEN-1", address("Straat 1")],
      [1, null, address("Straat 2")],
    ]);
    expect(kept?.invoices.map((i) => [i.orderId, i.position, i.invoiceNumber, i.amountCents])).toEqual([
      [input.orderId, 0, "F-1", 125_000],
      [input.orderId, 1, "F-2", 125_000],
    ]);
    expect(kept?.notes.map((note) => [note.kind, note.text])).toEqual([
      ["metadata", "Metadata van de opdracht:\nbron: test"],
    ]);
    expect(await eventsOf(placed.caseNumber)).toEqual([]);
  });

  it("joins the open case of a customer number, merges custom fields and sends invoice.updated per invoice", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const first = order(["JOIN-1"], ["F-1"], { udfFields: { a: "1" } });
    const opening = await cases.placeOnCase(first);
    const follow = order(["JOIN-1"], ["F-2", "F-3"], { udfFields: { b: "2" } });
    const counted = countingDatabase(store.database);
    const measured = createBuiltInCaseSystem({ store: { database: counted.database }, now: () => at });
    const placed = await measured.placeOnCase(follow);
    expect(placed).toEqual({ caseNumber: opening.caseNumber, caseNew: false, otherOpenCases: [] });
    // The batch finds the order joining and writes nothing; the transaction places it with its
    // two events.
    expect(counted.seen).toEqual({ statements: 6, transactions: 1, batches: 1 });
    const kept = await cases.getCase({ caseNumber: opening.caseNumber });
    expect(kept?.udfFields).toEqual({ a: "1", b: "2" });
    expect(kept?.orders.map((o) => o.orderId)).toEqual([first.orderId, follow.orderId]);
    expect(kept?.invoices.map((i) => i.invoiceNumber)).toEqual(["F-1", "F-2", "F-3"]);
    const merged = {
      order_id: follow.orderId,
      case_number: opening.caseNumber,
      reference: follow.reference,
      case_event: "case_invoices",
    };
    expect(await eventsOf(opening.caseNumber)).toEqual([
      { type: "invoice.updated", data: merged },
      { type: "invoice.updated", data: merged },
    ]);
  });

  it("joins in the batch itself when webhook events are off", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const opening = await cases.placeOnCase(order(["QUIET-1"]));
    const counted = countingDatabase(store.database);
    const quiet = createBuiltInCaseSystem({
      store: { database: counted.database },
      now: () => at,
      webhookEvents: false,
    });
    const placed = await quiet.placeOnCase(order(["QUIET-1"], ["F-2"]));
    expect(placed).toEqual({ caseNumber: opening.caseNumber, caseNew: false, otherOpenCases: [] });
    expect(counted.seen).toEqual({ statements: 2, transactions: 0, batches: 1 });
    expect(await eventsOf(opening.caseNumber)).toEqual([]);
  });

  it("joins the oldest of several open cases and names the others, oldest first; closed cases and other creditors' are never joined", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const older = await cases.placeOnCase(order(["MANY-A"]));
    const newer = await cases.placeOnCase(order(["MANY-B"]));
    const elsewhere = await cases.placeOnCase(
      order(["MANY-B"], ["F-1"], { creditor: { id: "cred_1", name: "Y" } }),
    );
    expect(elsewhere.caseNew).toBe(true);
    const placed = await cases.placeOnCase(order(["MANY-B", "MANY-A"]));
    expect(placed).toEqual({
      caseNumber: older.caseNumber,
      caseNew: false,
      otherOpenCases: [newer.caseNumber],
    });
    // The statement's rule is core's chooseOpenCase (decision orders-engine-multiple-open-cases):
    // on the same cases (opened at the same moment, so the case number decides) both pick alike.
    const { rows } = await store.database.query<{
      case_number: string;
      created_at: Date | string;
      opened_by_order_id: string;
    }>(
      "SELECT case_number, created_at, opened_by_order_id FROM cases WHERE case_number = ANY($1::text[]) ORDER BY case_number DESC",
      [[newer.caseNumber, older.caseNumber]],
    );
    const rule = chooseOpenCase(
      rows.map((r) => ({
        caseNumber: r.case_number,
        openedAt: new Date(r.created_at),
        openedByOrderId: r.opened_by_order_id,
      })),
      "ord_ffffffffffffffff",
    );
    expect([rule.join?.caseNumber, ...rule.others]).toEqual([placed.caseNumber, ...placed.otherOpenCases]);
    await cases.closeCase({ caseNumber: older.caseNumber });
    const after = await cases.placeOnCase(order(["MANY-A", "MANY-B"]));
    expect(after).toEqual({ caseNumber: newer.caseNumber, caseNew: false, otherOpenCases: [] });
  });

  it("is idempotent on the order id: a repeat opens no second case and adds nothing twice", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const input = order(["AGAIN-1"], ["F-1", "F-2"], { note: "Metadata" });
    const first = await cases.placeOnCase(input);
    const before = await rowsOf(input.orderId);
    expect(before).toEqual({ case_orders: 1, case_debtors: 1, case_invoices: 2, case_notes: 1, cases: 1 });
    expect(await cases.placeOnCase(input)).toEqual(first);
    expect(await rowsOf(input.orderId)).toEqual(before);

    const join = order(["AGAIN-1"], ["F-3"]);
    const joined = await cases.placeOnCase(join);
    expect(await cases.placeOnCase(join)).toEqual(joined);
    expect(joined).toMatchObject({ caseNumber: first.caseNumber, caseNew: false });
    expect(await rowsOf(join.orderId)).toEqual({
      case_orders: 1,
      case_debtors: 1,
      case_invoices: 1,
      case_notes: 0,
      cases: 0,
    });
    // One invoice.updated for the joining order's one invoice, none for the repeat.
    expect((await eventsOf(first.caseNumber)).map((e) => e.type)).toEqual(["invoice.updated"]);

    // A repeat finds the case the order is on even after it was closed.
    await cases.closeCase({ caseNumber: first.caseNumber });
    expect(await cases.placeOnCase(input)).toEqual(first);
  });

  it("completes an order placed without its items (as older versions' separate calls could leave one)", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const input = order(["HALF-1"], ["F-1", "F-2"]);
    const { caseNumber } = await cases.placeOnCase({ ...input, addresses: [], invoices: [] });
    expect(await cases.placeOnCase(input)).toEqual({ caseNumber, caseNew: true, otherOpenCases: [] });
    const kept = await cases.getCase({ caseNumber });
    expect(kept?.debtors.map((d) => d.address)).toEqual([address("Straat 1")]);
    expect(kept?.invoices.map((i) => i.invoiceNumber)).toEqual(["F-1", "F-2"]);
    expect(await eventsOf(caseNumber)).toEqual([]);
  });

  it("hands the listener one change per step of the placement, in the transaction; a throwing listener leaves nothing", async () => {
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
    const opening = order(["LISTEN-P", "LISTEN-Q"], ["F-1", "F-2"]);
    const { caseNumber } = await cases.placeOnCase(opening);
    const follow = order(["LISTEN-P"], ["F-3"]);
    await cases.placeOnCase(follow);
    const of = (o: CasePlacementInput) => ({
      caseNumber,
      organisationId,
      orderId: o.orderId,
      reference: o.reference,
      at,
    });
    expect(seen).toEqual([
      { ...of(opening), kind: "case_opened" },
      { ...of(opening), kind: "debtor_address_set", debtorIndex: 0 },
      { ...of(opening), kind: "debtor_address_set", debtorIndex: 1 },
      { ...of(opening), kind: "invoice_added", invoiceNumber: "F-1", merged: false },
      { ...of(opening), kind: "invoice_added", invoiceNumber: "F-2", merged: false },
      { ...of(follow), kind: "order_added" },
      { ...of(follow), kind: "debtor_address_set", debtorIndex: 0 },
      { ...of(follow), kind: "invoice_added", invoiceNumber: "F-3", merged: true },
    ]);
    fail = true;
    const refused = order(["LISTEN-R"]);
    await expect(cases.placeOnCase(refused)).rejects.toThrow("listener down");
    expect(await rowsOf(refused.orderId)).toEqual({
      case_orders: 0,
      case_debtors: 0,
      case_invoices: 0,
      case_notes: 0,
      cases: 0,
    });
  });

  it("leaves nothing when a part fails, and refuses an address of a debtor the order does not have", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const broken = order(["FAIL-1"], ["F-1", "F-2"]);
    const second = broken.invoices[1];
    if (second) second.invoice = invoice("F-2", 0); // breaks CHECK (amount_cents > 0)
    await expect(cases.placeOnCase(broken)).rejects.toMatchObject({ code: "23514" });
    expect(await rowsOf(broken.orderId)).toEqual({
      case_orders: 0,
      case_debtors: 0,
      case_invoices: 0,
      case_notes: 0,
      cases: 0,
    });
    const beyond = order(["FAIL-2"]);
    beyond.addresses.push({ debtorIndex: 3, address: address("Nergens") });
    await expect(cases.placeOnCase(beyond)).rejects.toMatchObject({
      code: "order_not_on_case",
      message: `Order ${beyond.orderId} has no debtor 3.`,
    });
    expect((await rowsOf(beyond.orderId)).cases).toBe(0);
  });

  it("finds the order and the open cases through their indexes also in a generic plan (one made without the parameters' values)", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    for (let i = 0; i < 20; i++) await cases.placeOnCase(order([`PLAN-${i}`]));
    const statement = placementStatement(order(["PLAN-1"]), { mergeAllowed: false, year: 2026 });
    const plan = await store.database.transaction(async (tx) => {
      await tx.query("SET LOCAL plan_cache_mode = force_generic_plan");
      await tx.query(`PREPARE placement_plan AS ${statement.text}`);
      const literal = (v: unknown) =>
        v === null
          ? "NULL"
          : `'${(Array.isArray(v) ? `{${v.map((x) => JSON.stringify(x)).join(",")}}` : String(v)).replaceAll("'", "''")}'`;
      const { rows } = await tx.query<Record<string, string>>(
        `EXPLAIN (COSTS OFF) EXECUTE placement_plan(${(statement.params ?? []).map(literal).join(", ")})`,
      );
      await tx.query("DEALLOCATE placement_plan");
      return rows.map((r) => Object.values(r)[0]).join("\n");
    });
    // Walking every case or debtor of the organisation made each order slower than the one before.
    expect(plan).toContain("Index Cond: (order_id = $1)");
    expect(plan).toContain("Index Cond: ((organisation_id = $2) AND (customer_number = k.customer_number))");
    expect(plan).not.toMatch(/Seq Scan on case_debtors|Seq Scan on case_orders/);
  });

  it("puts simultaneous orders for one customer number on one case (25 pairs at once, and a crowd of 8)", async () => {
    const cases = createBuiltInCaseSystem({ store, now: () => at });
    const pairs = Array.from({ length: 25 }, (_, i) => [order([`RACE-${i}`]), order([`RACE-${i}`])]);
    const crowd = Array.from({ length: 8 }, (_, i) => order(["RACE-CROWD", `RACE-CROWD-${i}`]));
    const placed = await Promise.all([...pairs.flat(), ...crowd].map((o) => cases.placeOnCase(o)));
    for (const [i] of pairs.entries()) {
      const [a, b] = [placed[2 * i], placed[2 * i + 1]];
      expect(a?.caseNumber).toBe(b?.caseNumber);
      expect([a?.caseNew, b?.caseNew].sort()).toEqual([false, true]);
    }
    const crowded = placed.slice(50);
    expect(new Set(crowded.map((p) => p.caseNumber)).size).toBe(1);
    expect(crowded.filter((p) => p.caseNew)).toHaveLength(1);
    expect(
      await countOf(
        "SELECT count(DISTINCT c.case_number) AS n FROM cases c JOIN case_debtors d ON d.case_number = c.case_number WHERE d.customer_number LIKE 'RACE-%' AND d.organisation_id = $1",
        [organisationId],
      ),
    ).toBe(26);
  });
});
