import type { CaseOrderInput, CasePlacementInput, OpenCase } from "@incasso/core";
import { describe, expect, it } from "vitest";
import { placeOnCaseStepwise } from "./place-on-case-stepwise.js";

// A host's smaller calls behind the one placement call (decisions case-system-port-one-call-placement,
// case-system-port-batched-items, orders-engine-multiple-open-cases).

const debtor = (customerNumber: string | null) => ({
  type: "business" as const,
  company_name: "Voorbeeld B.V.",
  first_name: null,
  middle_name: null,
  last_name: null,
  customer_number: customerNumber,
  email: null,
  phone: null,
  name: "Voorbeeld B.V.",
});
const address = {
  street: "Teststraat",
  house_number: "1",
  house_number_suffix: null,
  postal_code: "9999 ZZ",
  city: "Testdorp",
  country: "NL",
};
const invoice = (n: string) => ({
  invoice_number: n,
  invoice_date: "2026-10-01",
  due_date: "2026-10-15",
  payment_term_days: 14,
  amount_cents: 1000,
  description: null,
});
const input = (customerNumbers: (string | null)[]): CasePlacementInput => ({
  orderId: "ord_0123456789abcdef",
  organisationId: "org_0123456789abcdef",
  creditor: { id: null, name: "Acme BV" },
  type: "incasso",
  reference: null,
  title: "Opdracht",
  description: null,
  udfFields: {},
  debtors: customerNumbers.map(debtor),
  note: null,
  at: new Date("2026-11-21T10:00:00Z"),
  addresses: customerNumbers.map((_, debtorIndex) => ({ debtorIndex, address })),
  invoices: [
    { invoiceIndex: 0, invoice: invoice("F-1") },
    { invoiceIndex: 1, invoice: invoice("F-2") },
  ],
});

function host(open: OpenCase[], fail: (step: string, input: unknown) => boolean = () => false) {
  const calls: string[] = [];
  const run =
    <T>(step: string, answer: (input: never) => T) =>
    async (i: unknown) => {
      calls.push(step);
      if (fail(step, i)) throw new Error(`${step} is down`);
      return answer(i as never);
    };
  return {
    calls,
    caseSteps: {
      findOpenCases: run("findOpenCases", () => open),
      openCase: run("openCase", () => ({ caseNumber: "2026-000100" })),
      joinCase: run("joinCase", (i: CaseOrderInput & { caseNumber: string }) => ({
        caseNumber: i.caseNumber,
      })),
    },
    addItems: run("addItems", () => undefined),
    setDebtorAddress: run("setDebtorAddress", () => undefined),
    addInvoice: run("addInvoice", () => undefined),
  };
}

describe("placeOnCaseStepwise", () => {
  it("opens a case without a lookup when no debtor has a customer number", async () => {
    const h = host([]);
    const place = placeOnCaseStepwise({ ...h.caseSteps, addItems: h.addItems });
    expect(await place(input([null]))).toEqual({
      caseNumber: "2026-000100",
      caseNew: true,
      otherOpenCases: [],
    });
    expect(h.calls).toEqual(["openCase", "addItems"]);
  });

  it("uses the per-item calls when a spread host object carries addItems: undefined", async () => {
    const h = host([]);
    const steps = {
      ...h.caseSteps,
      addItems: undefined,
      setDebtorAddress: h.setDebtorAddress,
      addInvoice: h.addInvoice,
    };
    const place = placeOnCaseStepwise(steps as unknown as Parameters<typeof placeOnCaseStepwise>[0]);
    expect(await place(input(["K-1", "K-2"]))).toMatchObject({ caseNumber: "2026-000100", caseNew: true });
    expect(h.calls).toEqual([
      "findOpenCases",
      "openCase",
      "setDebtorAddress",
      "setDebtorAddress",
      "addInvoice",
      "addInvoice",
    ]);
  });

  it("joins the oldest open case and names the others", async () => {
    const h = host([
      { caseNumber: "2026-000007", openedAt: new Date("2026-11-05"), openedByOrderId: "ord_b" },
      { caseNumber: "2026-000003", openedAt: new Date("2026-11-01"), openedByOrderId: "ord_a" },
    ]);
    const place = placeOnCaseStepwise({ ...h.caseSteps, addItems: h.addItems });
    expect(await place(input(["K-1"]))).toEqual({
      caseNumber: "2026-000003",
      caseNew: false,
      otherOpenCases: ["2026-000007"],
    });
    expect(h.calls).toEqual(["findOpenCases", "joinCase", "addItems"]);
  });

  it("a retry finds the case the order opened and opens it again (idempotent), merging into nothing", async () => {
    const h = host([
      { caseNumber: "2026-000003", openedAt: new Date("2026-11-01"), openedByOrderId: "ord_a" },
      {
        caseNumber: "2026-000100",
        openedAt: new Date("2026-11-21"),
        openedByOrderId: "ord_0123456789abcdef",
      },
    ]);
    const place = placeOnCaseStepwise({ ...h.caseSteps, addItems: h.addItems });
    expect(await place(input(["K-1"]))).toMatchObject({ caseNumber: "2026-000100", caseNew: true });
    expect(h.calls).toEqual(["findOpenCases", "openCase", "addItems"]);
  });

  for (const step of ["findOpenCases", "openCase", "joinCase"]) {
    it(`throws on when ${step} throws, and records no item`, async () => {
      const open =
        step === "joinCase"
          ? [{ caseNumber: "2026-000003", openedAt: new Date("2026-11-01"), openedByOrderId: "ord_a" }]
          : [];
      const h = host(open, (s) => s === step);
      const place = placeOnCaseStepwise({ ...h.caseSteps, addItems: h.addItems });
      await expect(place(input(["K-1"]))).rejects.toThrow(`${step} is down`);
      expect(h.calls).not.toContain("addItems");
    });
  }

  it("reports every item as not recorded when addItems throws, and tells the logger why", async () => {
    const h = host([], (s) => s === "addItems");
    const warned: unknown[] = [];
    const place = placeOnCaseStepwise(
      { ...h.caseSteps, addItems: h.addItems },
      { logger: { warn: (message, details) => warned.push({ message, details }) } },
    );
    expect((await place(input(["K-1", "K-2"]))).failedItems).toEqual({
      debtorIndexes: [0, 1],
      invoiceIndexes: [0, 1],
    });
    expect(warned).toEqual([
      {
        message: "case system step failed; the item is reported as not recorded",
        details: {
          step: "addItems",
          orderId: "ord_0123456789abcdef",
          caseNumber: "2026-000100",
          error: "addItems is down",
        },
      },
    ]);
  });

  it("with one call per item, reports only the failed items", async () => {
    const h = host([], (s, i) => s === "addInvoice" && (i as { invoiceIndex: number }).invoiceIndex === 1);
    const place = placeOnCaseStepwise({
      ...h.caseSteps,
      setDebtorAddress: h.setDebtorAddress,
      addInvoice: h.addInvoice,
    });
    const placed = await place(input(["K-1"]));
    expect(placed.failedItems).toEqual({ debtorIndexes: [], invoiceIndexes: [1] });
    expect(h.calls.filter((c) => c !== "findOpenCases")).toEqual([
      "openCase",
      "setDebtorAddress",
      "addInvoice",
      "addInvoice",
    ]);
  });
});
