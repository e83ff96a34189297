import type { CaseOrderInput } from "@incasso/core";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import type { CaseChange } from "./case-change.js";
import { businessDebtor, caseOrderInput, withItems } from "./internal/testing/case-order-input.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

let store: SqlStore;
let organisationId: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  organisationId = (await issueApiKey(store, { organisation: "Cases BV", mode: "live" })).record
    .organisationId;
});
afterAll(() => store.close());

const at = new Date("2026-11-21T10:00:00.000Z");
let n = 0;
function input(customerNumber = "K-1"): CaseOrderInput {
  n++;
  return caseOrderInput({
    orderId: `ord_${n.toString(16).padStart(16, "0")}`,
    organisationId,
    creditor: { id: null, name: "Cases BV" },
    type: "pre-incasso",
    reference: `R-${n}`,
    udfFields: { project: `P-${n}` },
    debtors: [businessDebtor("Voorbeeld B.V.", customerNumber)],
    note: "Metadata bij opdracht: a: 1",
    at,
  });
}
const invoice = {
  invoice_number: "F-1",
  invoice_date: "2026-10-01",
  due_date: "2026-10-15",
  payment_term_days: 14,
  amount_cents: 125000,
  description: null,
};

describe("the built-in case system", () => {
  it("opens a case once per order id: a repeat returns the same case and adds nothing", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const order = input("ONCE");
    const first = await cases.placeOnCase(withItems(order, [invoice]));
    const again = await cases.placeOnCase(withItems(order, [invoice]));
    expect(again).toEqual(first);
    expect(first).toMatchObject({ caseNew: true, otherOpenCases: [] });
    expect(first.caseNumber).toMatch(/^2026-\d{6}$/);
    const kept = await cases.getCase({ caseNumber: first.caseNumber });
    expect(kept).toMatchObject({
      status: "Nieuw",
      open: true,
      reference: order.reference,
      udfFields: { project: "P-1" },
    });
    expect(kept?.debtors).toHaveLength(1);
    expect(kept?.invoices).toHaveLength(1);
    expect(kept?.notes).toHaveLength(1);
  });

  it("joins an open case once per order id, merges custom fields, and never joins a closed case", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const opening = input("JOIN");
    const { caseNumber } = await cases.placeOnCase(withItems(opening));
    const follow = input("JOIN");
    const joined = await cases.placeOnCase(withItems(follow));
    expect(await cases.placeOnCase(withItems(follow))).toEqual(joined);
    expect(joined).toEqual({ caseNumber, caseNew: false, otherOpenCases: [] });
    const kept = await cases.getCase({ caseNumber });
    expect(kept?.orders.map((o) => o.orderId)).toEqual([opening.orderId, follow.orderId]);
    expect(kept?.udfFields).toEqual({ project: follow.udfFields.project });
    await cases.setStatus({ caseNumber, status: "Gesloten", at });
    const after = await cases.placeOnCase(withItems(input("JOIN")));
    expect(after.caseNew).toBe(true);
    expect(after.caseNumber).not.toBe(caseNumber);
  });

  it("refuses items of an order that is not on the case", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const { caseNumber } = await cases.placeOnCase(withItems(input("ITEM")));
    await expect(
      cases.storeAttachment({
        orderId: "ord_ffffffffffffffff",
        caseNumber,
        attachmentIndex: 0,
        filename: "f.pdf",
        documentType: null,
        bytes: new Uint8Array([37]),
      }),
    ).rejects.toMatchObject({ code: "order_not_on_case" });
  });

  it("shows a balance only once in treatment, and keeps it in treatment when paused", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const order = input("BAL");
    const { caseNumber } = await cases.placeOnCase(withItems(order, [invoice]));
    const q = { organisationId, caseNumber, today: "2026-10-15" };
    expect(await cases.caseState(q)).toEqual({ caseNumber, status: "Nieuw", open: true });
    await cases.setStatus({ caseNumber, status: "In behandeling", at });
    // 125000, no interest on the due date itself, and no collection costs before the pre-incasso
    // order's 14-day letter announced them (decision case-system-collection-costs).
    expect(await cases.caseState(q)).toEqual({
      caseNumber,
      status: "In behandeling",
      open: true,
      balanceDueCents: 125000,
    });
    await cases.setStatus({ caseNumber, status: "Aangehouden", at });
    expect((await cases.caseState(q))?.balanceDueCents).toBe(125000);
    expect(await cases.caseState({ ...q, organisationId: "org_0000000000000000" })).toBeUndefined();
    await expect(cases.setStatus({ caseNumber, status: "Weg" as never })).rejects.toMatchObject({
      code: "invalid_status",
    });
    await expect(
      cases.bookPayment({ caseNumber, amountCents: 0, paymentDate: "2026-11-21" }),
    ).rejects.toMatchObject({
      code: "invalid_payment",
    });
    // Dates the database could not store are the handler's mistake, refused before any write.
    for (const paymentDate of ["0000-01-01", "2026-02-31", "2026-13-01"]) {
      await expect(
        cases.bookPayment({ caseNumber, amountCents: 100, paymentDate }),
        paymentDate,
      ).rejects.toMatchObject({ code: "invalid_payment" });
    }
  });

  it("hands every change to the listener inside its transaction; a throwing listener rolls the change back", async () => {
    const seen: CaseChange[] = [];
    let fail = false;
    const cases = createBuiltInCaseSystem({
      store,
      now: () => at,
      onChange: async (change, tx) => {
        if (fail) throw new Error("outbox down");
        // The listener sees the change in its own transaction.
        const { rows } = await tx.db.query("SELECT 1 FROM cases WHERE case_number = $1", [change.caseNumber]);
        expect(rows).toHaveLength(1);
        seen.push(change);
      },
    });
    const order = input("LISTEN");
    const { caseNumber } = await cases.placeOnCase(withItems(order, [invoice]));
    await cases.bookPayment({ caseNumber, amountCents: 500, paymentDate: "2026-11-20" });
    expect(seen.map((c) => c.kind)).toEqual(["case_opened", "invoice_added", "payment_booked"]);
    expect(seen[2]).toMatchObject({
      caseNumber,
      orderId: order.orderId,
      reference: order.reference,
      amountCents: 500,
    });
    fail = true;
    await expect(
      cases.bookPayment({ caseNumber, amountCents: 700, paymentDate: "2026-11-20" }),
    ).rejects.toThrow("outbox down");
    expect((await cases.getCase({ caseNumber }))?.payments.map((p) => p.amountCents)).toEqual([500]);
  });
});
