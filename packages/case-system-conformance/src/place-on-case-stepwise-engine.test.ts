import type { CaseItemsInput } from "@incasso/core";
import { describe, expect, it } from "vitest";
// The engine's own placement, which a host's placeOnCase meets; not exported by @incasso/core.
import {
  addressFailed,
  attachment,
  batchedInput,
  claimFailed,
  place,
  type RecordedSteps,
  recordingCaseSystem,
  uploadFailed,
} from "../../core/src/engine/internal/testing/placement-fixtures.js";
import { type PlaceOnCaseStepwiseOptions, placeOnCaseStepwise } from "./place-on-case-stepwise.js";

// A host's smaller calls behind the engine's one placement call, through placeOnCaseStepwise
// (decisions case-system-port-one-call-placement, case-system-port-batched-items): one addItems
// call when the host has it, one call per address and invoice otherwise; a failed addItems becomes
// a warning for every item of the call.

/** The recording case system with placeOnCase built by placeOnCaseStepwise from its smaller calls. */
const stepwise = (steps: RecordedSteps, logger: PlaceOnCaseStepwiseOptions["logger"]) =>
  placeOnCaseStepwise(steps, { logger });

describe("placeOnCase built by placeOnCaseStepwise: addresses and invoices", () => {
  it("sends every address and invoice in one addItems call when the case system has it", async () => {
    const { cs, calls } = recordingCaseSystem({ batched: true, stepwise });
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
    const { cs, calls } = recordingCaseSystem({ batched: false, stepwise });
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
      stepwise,
      batched: true,
      fail: (step) => step === "addItems" || step === "storeAttachment",
    });
    const { placement } = await place(cs, [attachment], logged);
    expect(placement.warnings).toEqual([
      addressFailed("Eerste B.V."),
      addressFailed("Tweede B.V."),
      claimFailed("F-1"),
      claimFailed("F-2"),
      uploadFailed,
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
      stepwise,
      batched: false,
      fail: (step, input) => step === "addInvoice" && (input as { invoiceIndex: number }).invoiceIndex === 1,
    });
    expect((await place(cs)).placement.warnings).toEqual([claimFailed("F-2")]);
    const { cs: addresses } = recordingCaseSystem({
      stepwise,
      batched: false,
      fail: (step, input) =>
        step === "setDebtorAddress" && (input as { debtorIndex: number }).debtorIndex === 0,
    });
    expect((await place(addresses)).placement.warnings).toEqual([addressFailed("Eerste B.V.")]);
  });
});
