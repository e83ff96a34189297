// Run only by kit-catches-faults.test.ts (through vitest.kit.config.ts): the kit against the
// built-in case system with one rule of the port broken per suite. Each suite must fail exactly
// the kit's tests for that rule.
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { type CaseSystem, newId } from "@incasso/core";
import type { CaseSystemConformanceTarget, CaseSystemFault } from "../../conformance-target.js";
import { describeCaseSystemConformance } from "../../describe-case-system-conformance.js";

type Breakage =
  | "repeat-is-new-order"
  | "placement-never-fails"
  | "items-unreported"
  | "no-task-outcome"
  | "no-balance"
  | "no-withdrawal";

function target(breakage: Breakage) {
  const faults: CaseSystemFault[] = [];
  const seen = new Set<string>();
  const take = (fault: CaseSystemFault) => {
    const i = faults.indexOf(fault);
    if (i >= 0) faults.splice(i, 1);
    return i >= 0;
  };
  return {
    name: breakage,
    reportTimeoutMs: 300,
    reset: async () => {
      faults.length = 0;
    },
    async create(): Promise<CaseSystemConformanceTarget> {
      const store = await openCaseSystemStore();
      const cases = createBuiltInCaseSystem({ store });
      const caseSystem: CaseSystem = {
        async placeOnCase(input) {
          if (take("placement") && breakage !== "placement-never-fails") throw new Error("unavailable");
          const address = take("debtor_address");
          const invoice = take("invoice");
          const repeat = seen.has(input.orderId);
          seen.add(input.orderId);
          const placed = await cases.placeOnCase({
            ...input,
            // Forgets the order id on a repeat: the repeat is placed as a new order.
            ...(breakage === "repeat-is-new-order" && repeat ? { orderId: newId("ord") } : {}),
            addresses: address ? input.addresses.filter((a) => a.debtorIndex !== 0) : input.addresses,
            invoices: invoice ? input.invoices.filter((i) => i.invoiceIndex !== 0) : input.invoices,
          });
          return (address || invoice) && breakage !== "items-unreported"
            ? {
                ...placed,
                failedItems: { debtorIndexes: address ? [0] : [], invoiceIndexes: invoice ? [0] : [] },
              }
            : placed;
        },
        async storeAttachment(input) {
          if (take("attachment")) throw new Error("unavailable");
          await cases.storeAttachment(input);
        },
        addTask: (input) => cases.addTask(input),
        // Without it a placement whose order row never came stays on its case.
        ...(breakage === "no-withdrawal"
          ? {}
          : { withdrawPlacement: (input) => cases.withdrawPlacement(input) }),
        async caseState(query) {
          const state = await cases.caseState(query);
          if (breakage !== "no-balance" || state === undefined) return state;
          const { balanceDueCents: _dropped, ...rest } = state;
          return rest;
        },
      };
      return {
        caseSystem,
        store,
        failNext: (fault) => {
          faults.push(fault);
        },
        handler: {
          startTreatment: ({ caseNumber }) => cases.setStatus({ caseNumber, status: "In behandeling" }),
          bookPayment: async ({ caseNumber, amountCents, paymentDate }) => {
            await cases.bookPayment({ caseNumber, amountCents, paymentDate });
          },
          resolveTask: async ({ taskId, outcome, note }) => {
            if (breakage === "no-task-outcome") return;
            if (outcome === "done") await cases.completeTask({ taskId, note });
            else await cases.rejectTask({ taskId, reason: note });
          },
          closeCase: ({ caseNumber }) => cases.closeCase({ caseNumber }),
        },
        close: () => store.close(),
      };
    },
  };
}

for (const breakage of [
  "repeat-is-new-order",
  "placement-never-fails",
  "items-unreported",
  "no-task-outcome",
  "no-balance",
  "no-withdrawal",
] as const) {
  describeCaseSystemConformance(target(breakage));
}
