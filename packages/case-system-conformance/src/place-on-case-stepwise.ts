import {
  type CaseItemsInput,
  type CaseOrderInput,
  type CasePlacement,
  type CasePlacementInput,
  type CaseSystem,
  chooseOpenCase,
  type Logger,
  type NormalisedAddress,
  type NormalisedInvoice,
  type OpenCase,
  type OpenCaseQuery,
  openCaseQuery,
} from "@incasso/core";

// Beside the conformance kit, not in @incasso/core: the port has one placement call,
// CaseSystem.placeOnCase (decision case-system-port-one-call-placement), and this builds it for a
// host whose case system has smaller calls; imported from @incasso/case-system-conformance/stepwise,
// which loads no vitest (decision case-system-merge-rule-shared).

/**
 * The case step calls of {@link CaseSystemSteps}: a lookup, and opening or joining a case. Each
 * write is idempotent on the order id (the engine repeats a placement after a crash with the same
 * id; decision orders-engine-order-ids).
 *
 * @example
 * const steps: CaseSteps = { findOpenCases: async () => [], openCase: async () => ({ caseNumber: "2026-000001" }),
 *   joinCase: async (input) => ({ caseNumber: input.caseNumber }) };
 */
export interface CaseSteps {
  /** Open cases with a debtor with one of the customer numbers (any order; the rule sorts them). */
  findOpenCases(query: OpenCaseQuery): Promise<OpenCase[]>;
  /** Opens a case for the order; a repeat with the same order id returns the same case. */
  openCase(input: CaseOrderInput): Promise<{ caseNumber: string }>;
  /** Adds the order to an open case; a repeat with the same order id changes nothing more. */
  joinCase(input: CaseOrderInput & { caseNumber: string }): Promise<{ caseNumber: string }>;
}

/**
 * The item calls of {@link CaseSystemSteps}: either one `addItems` call for every address and
 * invoice (decision case-system-port-batched-items), or one call per item.
 *
 * @example
 * const items: ItemSteps = { addItems: async (input) => { await myCrm.attach(input); } };
 */
export type ItemSteps =
  | {
      /**
       * Records every address and invoice of the order at once, each idempotent on the order id
       * and its position. A throw says nothing about which were recorded, so each becomes its
       * warning.
       */
      addItems(input: CaseItemsInput): Promise<void>;
    }
  | {
      /** Records the address of the order's debtor number `debtorIndex` (0-based). */
      setDebtorAddress(input: {
        orderId: string;
        caseNumber: string;
        debtorIndex: number;
        address: NormalisedAddress;
      }): Promise<void>;
      /** Attaches the order's invoice number `invoiceIndex` (0-based) to the claim on the case. */
      addInvoice(input: {
        orderId: string;
        caseNumber: string;
        invoiceIndex: number;
        invoice: NormalisedInvoice;
      }): Promise<void>;
    };

/**
 * The smaller calls a host's case system may offer instead of one placement call, from which
 * {@link placeOnCaseStepwise} builds {@link CaseSystem.placeOnCase}.
 *
 * @example
 * const steps: CaseSystemSteps = { findOpenCases, openCase, joinCase, addItems };
 */
export type CaseSystemSteps = CaseSteps & ItemSteps;

/**
 * Options of {@link placeOnCaseStepwise}.
 *
 * @example
 * const options: PlaceOnCaseStepwiseOptions = { logger: { warn: (m, d) => console.warn(m, d) } };
 */
export interface PlaceOnCaseStepwiseOptions {
  /**
   * Told of every item call that failed, with its step and error, before the item is reported in
   * `failedItems` (the engine only learns which items, not why). Default: nothing is told.
   */
  logger?: Pick<Logger, "warn">;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Builds {@link CaseSystem.placeOnCase} from a host's smaller calls: `findOpenCases` with the
 * order's scope (`openCaseQuery` of @incasso/core), then `openCase` or `joinCase` by the merge rule
 * (`chooseOpenCase` of @incasso/core; decision orders-engine-multiple-open-cases), then the items
 * in one `addItems` call or one call per item.
 *
 * - A throw from `findOpenCases`, `openCase` or `joinCase` is thrown on: the engine refuses the
 *   order with 502 `upstream_error` (spec Errors).
 * - A throw from an item call puts its items in `failedItems` (all of them for `addItems`, which
 *   cannot say which were recorded): each becomes the warning `debtor_address_failed` or
 *   `claim_attach_failed` and the order stands (spec Warning: "the order is processed
 *   regardless"; decision case-system-port-batched-items).
 * - Not safe against a race: two orders for one customer number at the same moment can both find
 *   no open case and open two. Only a placement that looks up and opens under one lock closes that
 *   gap, as the built-in case system's does (decision case-system-port-one-call-placement).
 *
 * @example
 * const caseSystem: CaseSystem = {
 *   // import { placeOnCaseStepwise } from "@incasso/case-system-conformance/stepwise";
 *   placeOnCase: placeOnCaseStepwise({ findOpenCases, openCase, joinCase, addItems }),
 *   storeAttachment, addTask, caseState,
 * };
 */
export function placeOnCaseStepwise(
  steps: CaseSystemSteps,
  options: PlaceOnCaseStepwiseOptions = {},
): (input: CasePlacementInput) => Promise<CasePlacement> {
  const logger = options.logger;
  return async (input) => {
    const { addresses, invoices, ...caseInput } = input;
    // The scope of the merge rule (@incasso/core openCaseQuery): none when no debtor has a
    // customer number, which never merges (decision orders-engine-multiple-open-cases).
    const query = openCaseQuery(input);
    const open = query === undefined ? [] : await steps.findOpenCases(query);
    const choice = chooseOpenCase(open, input.orderId);
    const caseNumber =
      choice.join === undefined
        ? (await steps.openCase(caseInput)).caseNumber
        : (await steps.joinCase({ ...caseInput, caseNumber: choice.join.caseNumber })).caseNumber;
    const caseNew = choice.join === undefined;

    const failed = { debtorIndexes: [] as number[], invoiceIndexes: [] as number[] };
    const record = async (step: string, run: () => Promise<void>, onFail: () => void) => {
      try {
        await run();
      } catch (error) {
        logger?.warn("case system step failed; the item is reported as not recorded", {
          step,
          orderId: input.orderId,
          caseNumber,
          error: describe(error),
        });
        onFail();
      }
    };
    // A host may spread an object whose addItems is undefined: only a function counts.
    if (typeof (steps as { addItems?: unknown }).addItems === "function") {
      // Called on the host's object, so a case system written as a class keeps its `this`.
      const batched = steps as Extract<ItemSteps, { addItems: unknown }>;
      await record(
        "addItems",
        () => batched.addItems({ orderId: input.orderId, caseNumber, addresses, invoices }),
        () => {
          failed.debtorIndexes.push(...addresses.map((a) => a.debtorIndex));
          failed.invoiceIndexes.push(...invoices.map((i) => i.invoiceIndex));
        },
      );
    } else {
      const single = steps as Extract<ItemSteps, { addInvoice: unknown }>;
      // The item calls are independent of each other, so they run at once (a host's case system
      // answers them in parallel).
      await Promise.all([
        ...addresses.map(({ debtorIndex, address }) =>
          record(
            "setDebtorAddress",
            () => single.setDebtorAddress({ orderId: input.orderId, caseNumber, debtorIndex, address }),
            () => failed.debtorIndexes.push(debtorIndex),
          ),
        ),
        ...invoices.map(({ invoiceIndex, invoice }) =>
          record(
            "addInvoice",
            () => single.addInvoice({ orderId: input.orderId, caseNumber, invoiceIndex, invoice }),
            () => failed.invoiceIndexes.push(invoiceIndex),
          ),
        ),
      ]);
    }
    const placement: CasePlacement = { caseNumber, caseNew, otherOpenCases: caseNew ? [] : choice.others };
    if (failed.debtorIndexes.length + failed.invoiceIndexes.length > 0) {
      failed.debtorIndexes.sort((a, b) => a - b);
      failed.invoiceIndexes.sort((a, b) => a - b);
      placement.failedItems = failed;
    }
    return placement;
  };
}
