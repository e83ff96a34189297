import type { CaseSystem } from "@incasso/core";

/**
 * A step of the CaseSystem port that {@link faultyCaseSystem} can make fail.
 *
 * @example
 * const step: CaseSystemStep = "storeAttachment";
 */
export type CaseSystemStep = "placeOnCase" | "storeAttachment" | "addTask" | "caseState";

/**
 * A case system that delegates to a real one and throws where told, counting every call: the
 * test double that proves each failure path of the order engine (502 with nothing stored; each
 * partial-failure warning).
 *
 * @example
 * const faulty = faultyCaseSystem(createBuiltInCaseSystem({ store }));
 * faulty.failNext("placeOnCase");
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
 * Wraps `inner` in a {@link FaultyCaseSystem}. A host's smaller placement calls are tested through
 * `placeOnCaseStepwise` of @incasso/case-system-conformance/stepwise, not here (decision
 * case-system-port-one-call-placement).
 *
 * @example
 * const faulty = faultyCaseSystem(inner);
 * faulty.failNext("storeAttachment", { when: (i) => (i as { attachmentIndex: number }).attachmentIndex === 1 });
 */
export function faultyCaseSystem(inner: CaseSystem): FaultyCaseSystem {
  const steps: CaseSystemStep[] = ["placeOnCase", "storeAttachment", "addTask", "caseState"];
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

  return {
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
    placeOnCase: wrap("placeOnCase", (i) => inner.placeOnCase(i)),
    storeAttachment: wrap("storeAttachment", (i) => inner.storeAttachment(i)),
    addTask: wrap("addTask", (i) => inner.addTask(i)),
    caseState: wrap("caseState", (i) => inner.caseState(i)),
  };
}
