import type { CheckedAttachment } from "@incasso/pdf-guard";
import { describe, expect, it } from "vitest";
import type {
  CaseItemsInput,
  CasePlacement,
  CasePlacementInput,
  CaseSystem,
} from "../../case-system-port.js";
import type { NormalisedOrder } from "../../orders/normalised-order.js";
import { validateCreateOrder } from "../../orders/validate-create-order.js";
import { type CaseSystemSteps, placeOnCaseStepwise } from "../../place-on-case-stepwise.js";
import type { Principal } from "../../principal.js";
import type { OrderEngine } from "../order-engine.js";
import { placeOnCase } from "./place-on-case.js";

// The one placement call (decision case-system-port-one-call-placement), and a host's smaller calls
// behind it through placeOnCaseStepwise (decision case-system-port-batched-items): one addItems
// call when the host has it, one call per address and invoice otherwise; a failed addItems becomes
// a warning for every item of the call.

const principal: Principal = {
  keyId: "key_0123456789abcdef",
  organisationId: "org_0123456789abcdef",
  organisationName: "Acme BV",
  creditorName: "Acme BV",
  mode: "live",
  visibility: "own",
  creditorManagement: false,
  rateLimits: { perMinute: 60, perDay: 1000 },
};

function normalised(): NormalisedOrder {
  const address = { street: "Teststraat", house_number: "10", postal_code: "9999zz", city: "Testdorp" };
  const result = validateCreateOrder(
    {
      type: "incasso",
      debtors: [
        { type: "business", company_name: "Eerste B.V.", customer_number: "K-1", address },
        { type: "business", company_name: "Tweede B.V.", customer_number: "K-2", address },
      ],
      invoices: [
        { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
        { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
      ],
    },
    { today: "2026-11-21", udfDefinitions: [] },
  );
  if (!result.ok) throw new Error(`fixture order is invalid: ${JSON.stringify(result.errors)}`);
  return result.order;
}

const attachment: CheckedAttachment = {
  status: "accepted",
  index: 0,
  filename: "factuur.pdf",
  original_filename: "factuur.pdf",
  document_type: "invoice",
  bytes: new Uint8Array([37, 80, 68, 70]),
  size_bytes: 4,
  page_count: 1,
} as CheckedAttachment;

type Call = { step: string; input: unknown };

type Logged = { message: string; details: unknown }[];

/**
 * A case system that records every call; the calls `fail` picks throw. With `placement` its
 * placeOnCase answers that; without, placeOnCase is built by placeOnCaseStepwise from recorded
 * smaller calls (with addItems when `batched`), logging to `logged`.
 */
function recordingCaseSystem(options: {
  batched: boolean;
  fail?: (step: string, input: unknown) => boolean;
  placement?: CasePlacement;
}) {
  const calls: Call[] = [];
  const step =
    (name: string) =>
    async (input: unknown): Promise<void> => {
      calls.push({ step: name, input });
      if (options.fail?.(name, input)) throw new Error(`${name} is down`);
    };
  const logged: Logged = [];
  const caseSteps = {
    findOpenCases: async (input: unknown) => {
      calls.push({ step: "findOpenCases", input });
      return [];
    },
    openCase: async (input: unknown) => {
      calls.push({ step: "openCase", input });
      return { caseNumber: "2026-000001" };
    },
    joinCase: async (input: { caseNumber: string }) => ({ caseNumber: input.caseNumber }),
  };
  const steps: CaseSystemSteps = options.batched
    ? { ...caseSteps, addItems: step("addItems") }
    : { ...caseSteps, setDebtorAddress: step("setDebtorAddress"), addInvoice: step("addInvoice") };
  const placement = options.placement;
  const cs: CaseSystem = {
    placeOnCase:
      placement === undefined
        ? placeOnCaseStepwise(steps, {
            logger: { warn: (message, details) => logged.push({ message, details }) },
          })
        : async (input) => {
            calls.push({ step: "placeOnCase", input });
            if (options.fail?.("placeOnCase", input)) throw new Error("placeOnCase is down");
            return placement;
          },
    storeAttachment: step("storeAttachment"),
    addTask: async () => undefined,
    caseState: async () => undefined,
  };
  return { cs, calls, logged };
}

function engineWith(caseSystem: CaseSystem, logged: Logged = []) {
  const engine = {
    caseSystem,
    logger: {
      info() {},
      warn: (message: string, details?: unknown) => logged.push({ message, details }),
      error() {},
    },
  } as unknown as OrderEngine;
  return { engine, logged };
}

async function place(caseSystem: CaseSystem, attachments: CheckedAttachment[] = [], logged: Logged = []) {
  const { engine } = engineWith(caseSystem, logged);
  const placement = await placeOnCase(engine, {
    principal,
    orderId: "ord_0123456789abcdef",
    order: normalised(),
    creditor: { id: null, name: "Acme BV" },
    title: "Overeenkomst van opdracht voor factuur F-1",
    attachments,
    now: new Date("2026-11-21T10:00:00Z"),
  });
  return { placement, logged };
}

const address = {
  street: "Teststraat",
  house_number: "10",
  house_number_suffix: null,
  postal_code: "9999 ZZ",
  city: "Testdorp",
  country: "NL",
};
const batchedInput: CaseItemsInput = {
  orderId: "ord_0123456789abcdef",
  caseNumber: "2026-000001",
  addresses: [
    { debtorIndex: 0, address },
    { debtorIndex: 1, address },
  ],
  invoices: [
    {
      invoiceIndex: 0,
      invoice: {
        invoice_number: "F-1",
        invoice_date: "2026-09-01",
        due_date: "2026-09-15",
        payment_term_days: 14,
        amount_cents: 125000,
        description: null,
      },
    },
    {
      invoiceIndex: 1,
      invoice: {
        invoice_number: "F-2",
        invoice_date: "2026-09-15",
        due_date: "2026-10-15",
        payment_term_days: null,
        amount_cents: 20000,
        description: null,
      },
    },
  ],
};

const addressFailed = (name: string) => ({
  code: "debtor_address_failed",
  message: `Het adres van debiteur ${name} kon niet in het dossier worden vastgelegd. De opdracht is wel verwerkt.`,
  invoice_number: null,
});
const claimFailed = (invoiceNumber: string) => ({
  code: "claim_attach_failed",
  message: `Factuur ${invoiceNumber} kon niet aan de vordering in het dossier worden toegevoegd. De opdracht is wel verwerkt.`,
  invoice_number: invoiceNumber,
});

describe("placeOnCase built by placeOnCaseStepwise: addresses and invoices", () => {
  it("sends every address and invoice in one addItems call when the case system has it", async () => {
    const { cs, calls } = recordingCaseSystem({ batched: true });
    const { placement } = await place(cs, [attachment]);
    expect(placement).toEqual({ caseNumber: "2026-000001", caseNew: true, warnings: [] });
    expect(calls.map((c) => c.step)).toEqual(["findOpenCases", "openCase", "addItems", "storeAttachment"]);
    expect(calls[2]?.input).toEqual(batchedInput);
  });

  it("calls addItems on the steps object (a host's class keeps its `this`)", async () => {
    class HostCaseSteps {
      readonly received: CaseItemsInput[] = [];
      findOpenCases = async () => [];
      openCase = async () => ({ caseNumber: "2026-000009" });
      joinCase = async () => ({ caseNumber: "2026-000009" });
      async addItems(input: CaseItemsInput): Promise<void> {
        this.received.push(input);
      }
    }
    const host = new HostCaseSteps();
    const { placement } = await place({
      placeOnCase: placeOnCaseStepwise(host),
      storeAttachment: async () => undefined,
      addTask: async () => undefined,
      caseState: async () => undefined,
    });
    expect(placement.warnings).toEqual([]);
    expect(host.received).toEqual([{ ...batchedInput, caseNumber: "2026-000009" }]);
  });

  it("falls back to one setDebtorAddress per debtor and one addInvoice per invoice without addItems", async () => {
    const { cs, calls } = recordingCaseSystem({ batched: false });
    const { placement } = await place(cs);
    expect(placement.warnings).toEqual([]);
    expect(calls.slice(2)).toEqual([
      {
        step: "setDebtorAddress",
        input: { orderId: batchedInput.orderId, caseNumber: "2026-000001", ...batchedInput.addresses[0] },
      },
      {
        step: "setDebtorAddress",
        input: { orderId: batchedInput.orderId, caseNumber: "2026-000001", ...batchedInput.addresses[1] },
      },
      {
        step: "addInvoice",
        input: { orderId: batchedInput.orderId, caseNumber: "2026-000001", ...batchedInput.invoices[0] },
      },
      {
        step: "addInvoice",
        input: { orderId: batchedInput.orderId, caseNumber: "2026-000001", ...batchedInput.invoices[1] },
      },
    ]);
  });

  it("turns a failed addItems into a warning for every debtor and every invoice, logged once, before a file's warning", async () => {
    const { cs, logged } = recordingCaseSystem({
      batched: true,
      fail: (step) => step === "addItems" || step === "storeAttachment",
    });
    const { placement } = await place(cs, [attachment], logged);
    expect(placement.warnings).toEqual([
      addressFailed("Eerste B.V."),
      addressFailed("Tweede B.V."),
      claimFailed("F-1"),
      claimFailed("F-2"),
      {
        code: "attachment_upload_failed",
        message:
          "Bijlage factuur.pdf kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.",
        invoice_number: null,
      },
    ]);
    expect(logged.map((l) => (l.details as { step: string }).step)).toEqual([
      "addItems",
      "placeOnCase",
      "storeAttachment",
    ]);
    expect(logged[0]).toEqual({
      message: "case system step failed; the item is reported as not recorded",
      details: {
        step: "addItems",
        orderId: "ord_0123456789abcdef",
        caseNumber: "2026-000001",
        error: "addItems is down",
      },
    });
  });

  it("keeps the per-item warnings of the fallback: only the failed item", async () => {
    const { cs } = recordingCaseSystem({
      batched: false,
      fail: (step, input) => step === "addInvoice" && (input as { invoiceIndex: number }).invoiceIndex === 1,
    });
    expect((await place(cs)).placement.warnings).toEqual([claimFailed("F-2")]);
    const { cs: addresses } = recordingCaseSystem({
      batched: false,
      fail: (step, input) =>
        step === "setDebtorAddress" && (input as { debtorIndex: number }).debtorIndex === 0,
    });
    expect((await place(addresses)).placement.warnings).toEqual([addressFailed("Eerste B.V.")]);
  });
});

describe("placeOnCase: one call when the case system has placeOnCase", () => {
  const placementInput: CasePlacementInput = {
    orderId: "ord_0123456789abcdef",
    organisationId: principal.organisationId,
    creditor: { id: null, name: "Acme BV" },
    type: "incasso",
    reference: null,
    title: "Overeenkomst van opdracht voor factuur F-1",
    description: null,
    udfFields: {},
    debtors: [
      {
        type: "business",
        company_name: "Eerste B.V.",
        first_name: null,
        middle_name: null,
        last_name: null,
        customer_number: "K-1",
        email: null,
        phone: null,
        name: "Eerste B.V.",
      },
      {
        type: "business",
        company_name: "Tweede B.V.",
        first_name: null,
        middle_name: null,
        last_name: null,
        customer_number: "K-2",
        email: null,
        phone: null,
        name: "Tweede B.V.",
      },
    ],
    note: null,
    at: new Date("2026-11-21T10:00:00Z"),
    addresses: batchedInput.addresses,
    invoices: batchedInput.invoices,
  };

  it("places the order, its addresses and invoices with that one call; files still go one by one", async () => {
    const { cs, calls } = recordingCaseSystem({
      batched: true,
      placement: { caseNumber: "2026-000042", caseNew: true, otherOpenCases: [] },
    });
    const { placement } = await place(cs, [attachment]);
    expect(placement).toEqual({ caseNumber: "2026-000042", caseNew: true, warnings: [] });
    expect(calls.map((c) => c.step)).toEqual(["placeOnCase", "storeAttachment"]);
    expect(calls[0]?.input).toEqual(placementInput);
    expect(calls[1]?.input).toMatchObject({ orderId: placementInput.orderId, caseNumber: "2026-000042" });
  });

  it("warns attached_to_existing_case, and multiple_open_cases with the others, when the order joined", async () => {
    const joined = recordingCaseSystem({
      batched: false,
      placement: {
        caseNumber: "2026-000003",
        caseNew: false,
        otherOpenCases: ["2026-000005", "2026-000009"],
      },
    });
    expect((await place(joined.cs)).placement).toEqual({
      caseNumber: "2026-000003",
      caseNew: false,
      warnings: [
        {
          code: "attached_to_existing_case",
          message:
            "De facturen zijn toegevoegd aan het openstaande dossier 2026-000003 voor dit klantnummer.",
          invoice_number: null,
        },
        {
          code: "multiple_open_cases",
          message:
            "Voor dit klantnummer staan meerdere dossiers open (2026-000003, 2026-000005, 2026-000009); de opdracht is toegevoegd aan het oudste, 2026-000003.",
          invoice_number: null,
        },
      ],
    });
    const single = recordingCaseSystem({
      batched: false,
      placement: { caseNumber: "2026-000003", caseNew: false, otherOpenCases: [] },
    });
    expect((await place(single.cs)).placement.warnings.map((w) => w.code)).toEqual([
      "attached_to_existing_case",
    ]);
  });

  it("refuses the order with upstream_error when the call throws, logged with its step, and stores no file", async () => {
    const { cs, calls } = recordingCaseSystem({
      batched: true,
      placement: { caseNumber: "2026-000001", caseNew: true, otherOpenCases: [] },
      fail: (step) => step === "placeOnCase",
    });
    const { engine, logged } = engineWith(cs);
    const placing = placeOnCase(engine, {
      principal,
      orderId: "ord_0123456789abcdef",
      order: normalised(),
      creditor: { id: null, name: "Acme BV" },
      title: "Overeenkomst van opdracht voor factuur F-1",
      attachments: [attachment],
      now: new Date("2026-11-21T10:00:00Z"),
    });
    await expect(placing).rejects.toMatchObject({ name: "OrderEngineError", code: "upstream_error" });
    expect(calls.map((c) => c.step)).toEqual(["placeOnCase"]);
    expect(logged).toEqual([
      {
        message: "case system failed; order refused with 502",
        details: { step: "placeOnCase", orderId: "ord_0123456789abcdef", error: "placeOnCase is down" },
      },
    ]);
  });

  it("turns the items the case system reports as not recorded into their warnings, before a file's", async () => {
    const { cs } = recordingCaseSystem({
      batched: false,
      placement: {
        caseNumber: "2026-000001",
        caseNew: true,
        otherOpenCases: [],
        failedItems: { debtorIndexes: [1], invoiceIndexes: [1, 0] },
      },
      fail: (step) => step === "storeAttachment",
    });
    const { placement, logged } = await place(cs, [attachment]);
    expect(placement.warnings).toEqual([
      addressFailed("Tweede B.V."),
      claimFailed("F-1"),
      claimFailed("F-2"),
      {
        code: "attachment_upload_failed",
        message:
          "Bijlage factuur.pdf kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.",
        invoice_number: null,
      },
    ]);
    expect(logged.map((l) => (l.details as { step: string }).step)).toEqual([
      "placeOnCase",
      "storeAttachment",
    ]);
  });

  it("calls placeOnCase on the case system object (a host's class keeps its `this`)", async () => {
    class HostCaseSystem {
      readonly received: CasePlacementInput[] = [];
      readonly caseNumber = "2026-000077";
      storeAttachment = async () => undefined;
      addTask = async () => undefined;
      caseState = async () => undefined;
      async placeOnCase(input: CasePlacementInput): Promise<CasePlacement> {
        this.received.push(input);
        return { caseNumber: this.caseNumber, caseNew: true, otherOpenCases: [] };
      }
    }
    const host = new HostCaseSystem();
    const { placement } = await place(host);
    expect(placement).toEqual({ caseNumber: "2026-000077", caseNew: true, warnings: [] });
    expect(host.received).toEqual([placementInput]);
  });
});
