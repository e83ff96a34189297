import { describe, expect, it } from "vitest";
import type { CasePlacement, CasePlacementInput } from "../../case-system-port.js";
import { placeOnCase } from "./place-on-case.js";
import {
  addressFailed,
  attachment,
  batchedInput,
  claimFailed,
  engineWith,
  normalised,
  place,
  principal,
  recordingCaseSystem,
  uploadFailed,
} from "./testing/placement-fixtures.js";

// The one placement call of the CaseSystem port (decision case-system-port-one-call-placement):
// the engine's side of it, with the warnings it makes of what the call reports. A host's smaller
// calls behind it (placeOnCaseStepwise) are tested beside that helper, in
// @incasso/case-system-conformance.

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
      uploadFailed,
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
