import { inspectPdf } from "@incasso/pdf-guard";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "./built-in-case-system.js";
import { createCaseHandler } from "./case-handler.js";
import { CaseViewSchema } from "./case-handler-schemas.js";
import {
  businessDebtor,
  caseAddress,
  caseInvoice,
  caseOrderInput,
} from "./internal/testing/case-order-input.js";
import { giveLetterDetails } from "./internal/testing/letter-details.js";
import { closeTarget, newOrganisation, storeTargets } from "./internal/testing/store-targets.js";

// A case lists each debtor once (issue 31): follow-up orders that name the same debtor (same
// customer number and name) add no second debtor; a changed address becomes the debtor's address
// with the earlier one kept. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
const targets = storeTargets("case_debtors");

const day = (d: number) => new Date(Date.UTC(2026, 10, d, 9));

async function textOf(bytes: Uint8Array): Promise<string> {
  const inspected = await inspectPdf(bytes);
  if (!inspected.ok) throw new Error(inspected.message);
  return inspected.text.replace(/\s+/g, " ").trim();
}

describe.each(targets)("each debtor once on a case on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  let cases: BuiltInCaseSystem;
  beforeAll(async () => {
    store = await target.open();
    organisationId = await newOrganisation(store, "Debiteuren BV");
    await giveLetterDetails(store.database, organisationId);
    cases = createBuiltInCaseSystem({ store });
  }, 120_000);
  afterAll(() => closeTarget(target, store));

  let n = 0;
  async function place(customerNumber: string, street: string, at: Date) {
    n++;
    const orderId = `ord_${(0xdeb70000 + n).toString(16).padStart(16, "0")}`;
    const { caseNumber } = await cases.placeOnCase({
      ...caseOrderInput({
        orderId,
        organisationId,
        creditor: { id: null, name: "Debiteuren BV" },
        reference: `D-${n}`,
        at,
        debtors: [businessDebtor("Voorbeeld B.V.", customerNumber)],
      }),
      addresses: [{ debtorIndex: 0, address: caseAddress(street) }],
      invoices: [{ invoiceIndex: 0, invoice: caseInvoice(`F-${n}`, 10_000) }],
    });
    return { orderId, caseNumber };
  }

  it("three orders for the same debtor list it once, with its three orders", async () => {
    const a = await place("DEB-1", "Kade", day(20));
    const b = await place("DEB-1", "Kade", day(21));
    const c = await place("DEB-1", "Kade", day(22));
    expect([b.caseNumber, c.caseNumber]).toEqual([a.caseNumber, a.caseNumber]);
    const handler = createCaseHandler(cases, { now: () => day(23) });
    const view = CaseViewSchema.parse(await handler.showCase({ case_number: a.caseNumber }));
    expect(view.invoices).toHaveLength(3);
    expect(view.debtors).toEqual([
      {
        order_id: a.orderId,
        type: "business",
        name: "Voorbeeld B.V.",
        customer_number: "DEB-1",
        address: caseAddress("Kade"),
        order_ids: [a.orderId, b.orderId, c.orderId],
        previous_addresses: [],
      },
    ]);
    const [summary] = (await handler.listCases({ organisation_id: organisationId })).data.filter(
      (s) => s.case_number === a.caseNumber,
    );
    expect(summary?.debtors).toBe("Voorbeeld B.V.");
  });

  it("a changed address becomes the debtor's address, the earlier one kept; the letter prints only the new one", async () => {
    const a = await place("DEB-2", "Kade", day(20));
    const b = await place("DEB-2", "Dijk", day(21));
    expect(b.caseNumber).toBe(a.caseNumber);
    const handler = createCaseHandler(cases, { now: () => day(23) });
    const view = CaseViewSchema.parse(await handler.showCase({ case_number: a.caseNumber }));
    expect(view.debtors).toEqual([
      {
        order_id: a.orderId,
        type: "business",
        name: "Voorbeeld B.V.",
        customer_number: "DEB-2",
        address: caseAddress("Dijk"),
        order_ids: [a.orderId, b.orderId],
        previous_addresses: [
          { address: caseAddress("Kade"), order_id: a.orderId, set_at: day(20).toISOString() },
        ],
      },
    ]);
    const letter = await cases.sendLetter({ caseNumber: a.caseNumber, at: day(23) });
    const text = await textOf(letter.bytes);
    expect(text).toContain("Voorbeeld B.V. Dijk 10 9999 ZZ Testdorp");
    expect(text).not.toContain("Kade 10");
    expect(text.split("Voorbeeld B.V.").length - 1).toBe(1);
  });
});
