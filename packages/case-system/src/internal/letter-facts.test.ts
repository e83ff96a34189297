import { createOrderEngine, issueApiKey, principalOfKey, submitOrder } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "../built-in-case-system.js";
import { openCaseSystemStore } from "../open-case-system-store.js";
import { selectLetterFacts } from "./letter-facts.js";
import { giveLetterDetails } from "./testing/letter-details.js";

// The letter reads only what it prints, in one statement; these are the same facts the letter was
// written from when it read the whole case (getCase), so the letter itself is unchanged.
let store: SqlStore;
let key: Awaited<ReturnType<typeof issueApiKey>>;
beforeAll(async () => {
  store = await openCaseSystemStore();
  key = await issueApiKey(store, { organisation: "Facts BV", mode: "live" });
});
afterAll(() => store.close());

const address = (street: string, country?: string) => ({
  street,
  house_number: "12",
  house_number_suffix: "A",
  postal_code: country ? "1000" : "9999 ZZ",
  city: "Testdorp",
  ...(country ? { country } : {}),
});

describe("the facts of the 14-day letter", () => {
  it("are the creditor, debtors, invoices and payments of the whole case, in the case's order, for either order", async () => {
    const cases = createBuiltInCaseSystem({ store });
    const engine = createOrderEngine({ store, caseSystem: cases });
    const principal = principalOfKey(key.record);
    const first = await submitOrder(engine, principal, {
      type: "pre-incasso",
      reference: "FACT-1",
      debtors: [
        {
          type: "business",
          company_name: "Eerste B.V.",
          customer_number: "FACT-K",
          address: address("Kade"),
        },
        { type: "individual", first_name: "Els", last_name: "Smit", address: address("Rue", "BE") },
      ],
      invoices: [
        { invoice_number: "A-2", invoice_date: "2026-10-02", due_date: "2026-10-16", amount_cents: 20_000 },
        { invoice_number: "A-1", invoice_date: "2026-10-01", due_date: "2026-10-15", amount_cents: 10_050 },
      ],
    });
    const caseNumber = first.case.case_number as string;
    const second = await submitOrder(engine, principal, {
      type: "pre-incasso",
      reference: "FACT-2",
      debtors: [
        {
          type: "business",
          company_name: "Eerste B.V.",
          customer_number: "FACT-K",
          address: address("Kade"),
        },
      ],
      invoices: [
        { invoice_number: "B-1", invoice_date: "2026-10-03", due_date: "2026-10-17", amount_cents: 70_000 },
      ],
    });
    expect(second.case).toMatchObject({ case_number: caseNumber, new: false });
    // A debtor whose address step failed (warning debtor_address_failed) has no address.
    await store.database.query(
      `UPDATE case_debtors SET address_set_at = NULL, street = NULL, house_number = NULL, house_number_suffix = NULL,
         postal_code = NULL, city = NULL, country = NULL WHERE order_id = $1 AND position = 1`,
      [first.id],
    );
    await cases.bookPayment({ caseNumber, amountCents: 5_000, paymentDate: "2026-11-01" });
    await cases.bookPayment({ caseNumber, amountCents: 2_500, paymentDate: "2026-11-02" });

    const details = await cases.getCase({ caseNumber });
    if (details === undefined) throw new Error("no case");
    const expected = {
      caseNumber,
      organisationId: key.record.organisationId,
      creditorName: details.creditor.name,
      caseReference: "FACT-1",
      openedByOrderId: first.id,
      existingLetterId: null,
      debtors: details.debtors.map((d) => ({ name: d.name, address: d.address })),
      invoices: details.invoices.map((i) => ({
        invoiceNumber: i.invoiceNumber,
        invoiceDate: i.invoiceDate,
        dueDate: i.dueDate,
        amountCents: i.amountCents,
      })),
      // The newest invoice the letter lists (the second order's), and every payment with its day.
      claimsThrough: details.orders.find((o) => o.orderId === second.id)?.addedAt.toISOString(),
      payments: [
        { amountCents: 5_000, paymentDate: "2026-11-01" },
        { amountCents: 2_500, paymentDate: "2026-11-02" },
      ],
      // None set yet: the letter would be refused (letter_details_missing).
      letterDetails: null,
    };
    // Each debtor once (the second order names Eerste B.V. again, same customer number, name and
    // address), the one without address too.
    expect(expected.debtors).toHaveLength(2);
    expect(expected.debtors).toContainEqual({ name: "Els Smit", address: null });
    expect(expected.debtors).toContainEqual({
      name: "Eerste B.V.",
      address: {
        street: "Kade",
        house_number: "12",
        house_number_suffix: "A",
        postal_code: "9999 ZZ",
        city: "Testdorp",
        country: "NL",
      },
    });
    expect(expected.invoices.map((i) => i.invoiceNumber)).toEqual(["A-2", "A-1", "B-1"]);

    expect(await selectLetterFacts(store.database, { caseNumber, orderId: second.id })).toEqual({
      ...expected,
      order: { orderId: second.id, reference: "FACT-2" },
    });
    expect(await selectLetterFacts(store.database, { caseNumber })).toEqual({ ...expected, order: null });
    // An order of another case is not this case's order.
    expect(await selectLetterFacts(store.database, { caseNumber, orderId: "ord_00000000000000ff" })).toEqual({
      ...expected,
      order: null,
    });
    expect(await selectLetterFacts(store.database, { caseNumber: "2099-999999" })).toBeUndefined();

    const { updated_at: _, ...given } = await giveLetterDetails(store.database, key.record.organisationId);
    expect(await selectLetterFacts(store.database, { caseNumber })).toEqual({
      ...expected,
      order: null,
      letterDetails: {
        sender_name: "Incassobureau Test B.V.",
        street: "Teststraat 1",
        postal_code: "9999 ZZ",
        city: "Testdorp",
        iban: "NL91ABNA0417164300",
        bic: null,
        kvk_number: "12345678",
        phone: "020 123 4567",
        email: "brieven@example.nl",
      },
    });
    expect(given.iban).toBe("NL91ABNA0417164300");
    const letter = await cases.sendLetter({ caseNumber, orderId: second.id });
    expect(letter).toMatchObject({
      orderId: second.id,
      principalCents: 92_550,
      collectionCostsCents: 13_883,
    });
    expect(await selectLetterFacts(store.database, { caseNumber, orderId: second.id })).toMatchObject({
      existingLetterId: letter.id,
    });
  });
});
