import type { CaseSystem } from "@incasso/core";

/**
 * A step of the CaseSystem port that {@link faultyCaseSystem} can make fail.
 *
 * @example
 * const step: CaseSystemStep = "addInvoice";
 */
export type CaseSystemStep =
  | "findOpenCases"
  | "openCase"
  | "joinCase"
  | "setDebtorAddress"
  | "addInvoice"
  | "addItems"
  | "placeOnCase"
  | "storeAttachment"
  | "addTask"
  | "caseState";

/**
 * A case system that delegates to a real one and throws where told, counting every call: the
 * test double that proves each failure path of the order engine (502 with nothing stored; each
 * partial-failure warning).
 *
 * @example
 * const faulty = faultyCaseSystem(createBuiltInCaseSystem({ store }));
 * faulty.failNext("openCase");
 */
export interface FaultyCaseSystem extends CaseSystem {
  /** Every call so far per step. */
  readonly calls: Record<CaseSystemStep, number>;
  /** The next `times` calls of `step` throw (default once); `when` narrows which calls count. */
  failNext(step: CaseSystemStep, options?: { times?: number; when?: (input: unknown) => boolean }): void;
  /**
   * Every call of `step` throws after the real call ran: the write happened but its answer was lost,
   * as when a connection drops (what a retry after a crash meets).
   */
  loseAnswers(step: CaseSystemStep, on: boolean): void;
  /** Forgets every planned failure. */
  reset(): void;
}

/**
 * Options of {@link faultyCaseSystem}.
 *
 * @example
 * const options: FaultyCaseSystemOptions = { separateCaseCalls: true };
 */
export interface FaultyCaseSystemOptions {
  /**
   * Leave out the optional `placeOnCase` even when `inner` has it, so the engine places an order
   * with `findOpenCases`, `openCase` or `joinCase` and then the item calls, as with a host's case
   * system without the one-call placement. Default false: `placeOnCase` is there exactly when
   * `inner` has it (and the options below leave it).
   */
  separateCaseCalls?: boolean;
  /**
   * Leave out the optional `addItems` and `placeOnCase` even when `inner` has them, so the engine
   * records addresses and invoices with one `setDebtorAddress` or `addInvoice` call per item, as
   * with a host's case system without either. Default false.
   */
  perItemCalls?: boolean;
}

/**
 * Wraps `inner` in a {@link FaultyCaseSystem}.
 *
 * @example
 * const faulty = faultyCaseSystem(inner, { perItemCalls: true });
 * const separate = faultyCaseSystem(inner, { separateCaseCalls: true }); // findOpenCases, openCase, addItems
 * faulty.failNext("addInvoice", { when: (i) => (i as { invoiceIndex: number }).invoiceIndex === 1 });
 */
export function faultyCaseSystem(inner: CaseSystem, options: FaultyCaseSystemOptions = {}): FaultyCaseSystem {
  const steps: CaseSystemStep[] = [
    "findOpenCases",
    "openCase",
    "joinCase",
    "setDebtorAddress",
    "addInvoice",
    "addItems",
    "placeOnCase",
    "storeAttachment",
    "addTask",
    "caseState",
  ];
  const calls = Object.fromEntries(steps.map((s) => [s, 0])) as Record<CaseSystemStep, number>;
  let planned: { step: CaseSystemStep; times: number; when?: (input: unknown) => boolean }[] = [];
  const losing = new Set<CaseSystemStep>();

  function wrap<I, O>(step: CaseSystemStep, call: (input: I) => Promise<O>): (input: I) => Promise<O> {
    return async (input) => {
      calls[step]++;
      const plan = planned.find(
        (p) => p.step === step && p.times > 0 && (p.when === undefined || p.when(input)),
      );
      if (plan) {
        plan.times--;
        throw new Error(`injected failure of ${step}`);
      }
      const result = await call(input);
      if (losing.has(step)) throw new Error(`injected lost answer of ${step}`);
      return result;
    };
  }

  const addItems = options.perItemCalls === true ? undefined : inner.addItems?.bind(inner);
  const placeOnCase =
    options.perItemCalls === true || options.separateCaseCalls === true
      ? undefined
      : inner.placeOnCase?.bind(inner);
  return {
    ...(addItems === undefined ? {} : { addItems: wrap("addItems", addItems) }),
    ...(placeOnCase === undefined ? {} : { placeOnCase: wrap("placeOnCase", placeOnCase) }),
    calls,
    failNext(step, options = {}) {
      planned.push({ step, times: options.times ?? 1, ...(options.when ? { when: options.when } : {}) });
    },
    loseAnswers(step, on) {
      if (on) losing.add(step);
      else losing.delete(step);
    },
    reset() {
      planned = [];
      losing.clear();
    },
    findOpenCases: wrap("findOpenCases", (i) => inner.findOpenCases(i)),
    openCase: wrap("openCase", (i) => inner.openCase(i)),
    joinCase: wrap("joinCase", (i) => inner.joinCase(i)),
    setDebtorAddress: wrap("setDebtorAddress", (i) => inner.setDebtorAddress(i)),
    addInvoice: wrap("addInvoice", (i) => inner.addInvoice(i)),
    storeAttachment: wrap("storeAttachment", (i) => inner.storeAttachment(i)),
    addTask: wrap("addTask", (i) => inner.addTask(i)),
    caseState: wrap("caseState", (i) => inner.caseState(i)),
  };
}
