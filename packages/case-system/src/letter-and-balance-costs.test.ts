import { inspectPdf } from "@incasso/pdf-guard";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "./built-in-case-system.js";
import { createCaseHandler } from "./case-handler.js";
import { businessDebtor, caseAddress, caseOrderInput } from "./internal/testing/case-order-input.js";
import { giveLetterDetails } from "./internal/testing/letter-details.js";
import { closeTarget, newOrganisation, storeTargets } from "./internal/testing/store-targets.js";

// The 14-day letter and the case balance agree on the collection costs (art. 6:96 lid 6 BW; decision
// case-system-collection-costs): what the letter announces is what the balance, the order status
// (caseState, behind GET /orders/{id}) and the handler's case view (the console's) charge.
// On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (a schema of its own, dropped after).
const targets = storeTargets("case_costs");

// Invoices due on 21 November 2026 and balances of that day: no interest, so the figures are the
// principal, the costs and the payments alone.
const today = "2026-11-21";
const handlerNow = new Date("2026-11-21T12:00:00.000Z");
const day = (d: number, hour = 9) => new Date(Date.UTC(2026, 10, d, hour));

/** The letter's text with pdf.js's line breaks and spacing folded to single spaces. */
async function textOf(bytes: Uint8Array): Promise<string> {
  const inspected = await inspectPdf(bytes);
  if (!inspected.ok) throw new Error(inspected.message);
  return inspected.text.replace(/\s+/g, " ").trim();
}

describe.each(targets)("collection costs of the letter and the balance on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  let cases: BuiltInCaseSystem;
  beforeAll(async () => {
    store = await target.open();
    organisationId = await newOrganisation(store, "Kosten BV");
    await giveLetterDetails(store.database, organisationId);
    cases = createBuiltInCaseSystem({ store });
  }, 120_000);
  afterAll(() => closeTarget(target, store));

  let n = 0;
  /** Places an order of one invoice for the debtor with `customerNumber`; a second one joins its case. */
  async function place(
    customerNumber: string,
    amountCents: number,
    at: Date,
    type: "pre-incasso" | "incasso" = "pre-incasso",
  ): Promise<{ orderId: string; caseNumber: string }> {
    n++;
    const orderId = `ord_${(0xc0570000 + n).toString(16).padStart(16, "0")}`;
    const { caseNumber } = await cases.placeOnCase({
      ...caseOrderInput({
        orderId,
        organisationId,
        creditor: { id: null, name: "Kosten BV" },
        type,
        reference: `K-${n}`,
        at,
        debtors: [businessDebtor("Voorbeeld B.V.", customerNumber)],
      }),
      addresses: [{ debtorIndex: 0, address: caseAddress("Kade") }],
      invoices: [
        {
          invoiceIndex: 0,
          invoice: {
            invoice_number: `F-${n}`,
            invoice_date: "2026-10-01",
            due_date: today,
            payment_term_days: null,
            amount_cents: amountCents,
            description: null,
          },
        },
      ],
    });
    return { orderId, caseNumber };
  }

  /** The costs and balance the case balance, the order status and the handler's view show. */
  async function charged(caseNumber: string) {
    const balance = await cases.caseBalance({ caseNumber, today });
    const handler = createCaseHandler(cases, { now: () => handlerNow });
    const view = await handler.showCase({ case_number: caseNumber });
    await cases.setStatus({ caseNumber, status: "In behandeling", at: handlerNow });
    const state = await cases.caseState({ organisationId, caseNumber, today });
    expect(view.balance.collection_costs_cents).toBe(balance?.collectionCostsCents);
    expect(view.balance.balance_due_cents).toBe(balance?.balanceDueCents);
    expect(state?.balanceDueCents).toBe(balance?.balanceDueCents);
    return { costs: balance?.collectionCostsCents, due: balance?.balanceDueCents };
  }

  it("a payment before the letter: the letter and the balance both take € 405,10 on € 2.801,00", async () => {
    const { orderId, caseNumber } = await place("KOST-1", 300_100, day(20));
    await cases.bookPayment({ caseNumber, amountCents: 20_000, paymentDate: "2026-11-20", at: day(20, 12) });
    const letter = await cases.sendLetter({ caseNumber, orderId, at: day(21) });
    expect([letter.principalCents, letter.collectionCostsCents]).toEqual([280_100, 40_510]);
    const text = await textOf(letter.bytes);
    expect(text).toContain("Reeds betaald € 200,00");
    expect(text).toContain("incassokosten verschuldigd van € 405,10");
    // 3.001,00 + 405,10 − 200,00.
    expect(await charged(caseNumber)).toEqual({ costs: 40_510, due: 320_610 });
  });

  it("a payment after the letter leaves the costs the letter announced: € 425,10 on € 3.001,00", async () => {
    const { orderId, caseNumber } = await place("KOST-2", 300_100, day(20));
    const letter = await cases.sendLetter({ caseNumber, orderId, at: day(21) });
    expect([letter.principalCents, letter.collectionCostsCents]).toEqual([300_100, 42_510]);
    expect(await textOf(letter.bytes)).toContain("incassokosten verschuldigd van € 425,10");
    await cases.bookPayment({ caseNumber, amountCents: 20_000, paymentDate: "2026-11-22", at: day(22) });
    // 3.001,00 + 425,10 − 200,00.
    expect(await charged(caseNumber)).toEqual({ costs: 42_510, due: 322_610 });
  });

  it("a payment received before the letter but booked after it lowers the costs to the law's € 405,10", async () => {
    const { orderId, caseNumber } = await place("KOST-3", 300_100, day(20));
    const letter = await cases.sendLetter({ caseNumber, orderId, at: day(21) });
    expect(letter.collectionCostsCents).toBe(42_510);
    await cases.bookPayment({ caseNumber, amountCents: 20_000, paymentDate: "2026-11-19", at: day(23) });
    expect(await charged(caseNumber)).toEqual({ costs: 40_510, due: 320_610 });
  });

  it("a pre-incasso order merged after the letter: no costs of its own until its letter, then € 530,10 on € 4.051,00", async () => {
    const first = await place("KOST-4", 300_100, day(20));
    await cases.bookPayment({
      caseNumber: first.caseNumber,
      amountCents: 20_000,
      paymentDate: "2026-11-20",
      at: day(20, 12),
    });
    await cases.sendLetter({ caseNumber: first.caseNumber, orderId: first.orderId, at: day(21) });
    const second = await place("KOST-4", 125_000, day(25));
    expect(second.caseNumber).toBe(first.caseNumber);
    const caseNumber = first.caseNumber;
    // 3.001,00 + 1.250,00 + 405,10 − 200,00: the new claim's costs come from its own letter.
    expect(await charged(caseNumber)).toEqual({ costs: 40_510, due: 445_610 });

    // The second letter lists both claims together (art. 6:96 lid 7 BW), lowered by the € 200,00
    // paid before it: € 4.051,00 → € 530,10.
    const letter = await cases.sendLetter({ caseNumber, orderId: second.orderId, at: day(26) });
    expect([letter.principalCents, letter.collectionCostsCents]).toEqual([405_100, 53_010]);
    expect(await textOf(letter.bytes)).toContain("incassokosten verschuldigd van € 530,10");
    // 4.251,00 + 530,10 − 200,00.
    expect(await charged(caseNumber)).toEqual({ costs: 53_010, due: 458_110 });
  });

  it("an incasso order merged after the letter carries the scale on its own principal: € 405,10 + € 187,50", async () => {
    const first = await place("KOST-5", 300_100, day(20));
    await cases.bookPayment({
      caseNumber: first.caseNumber,
      amountCents: 20_000,
      paymentDate: "2026-11-20",
      at: day(20, 12),
    });
    await cases.sendLetter({ caseNumber: first.caseNumber, orderId: first.orderId, at: day(21) });
    const second = await place("KOST-5", 125_000, day(25), "incasso");
    expect(second.caseNumber).toBe(first.caseNumber);
    // 4.251,00 + 405,10 + 187,50 − 200,00.
    expect(await charged(first.caseNumber)).toEqual({ costs: 59_260, due: 464_360 });
  });

  it("a second letter of the case after a payment announces less, and the balance follows it", async () => {
    const { orderId, caseNumber } = await place("KOST-6", 300_100, day(20));
    expect((await cases.sendLetter({ caseNumber, orderId, at: day(21) })).collectionCostsCents).toBe(42_510);
    await cases.bookPayment({ caseNumber, amountCents: 50_000, paymentDate: "2026-11-22", at: day(22) });
    // The handler's letter of the whole case: € 3.001,00 − € 500,00 = € 2.501,00 → € 375,10.
    const again = await cases.sendLetter({ caseNumber, at: day(23) });
    expect([again.principalCents, again.collectionCostsCents]).toEqual([250_100, 37_510]);
    expect(await textOf(again.bytes)).toContain("incassokosten verschuldigd van € 375,10");
    // 3.001,00 + 375,10 − 500,00.
    expect(await charged(caseNumber)).toEqual({ costs: 37_510, due: 287_610 });
  });

  it("a pre-incasso case without its letter charges no collection costs", async () => {
    const { caseNumber } = await place("KOST-7", 300_100, day(20));
    expect(await charged(caseNumber)).toEqual({ costs: 0, due: 300_100 });
  });
});
