import { randomBytes } from "node:crypto";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import type { CasePlacement, CasePlacementInput, CaseSystem } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import type {
  CaseSystemConformanceOptions,
  CaseSystemConformanceTarget,
  CaseSystemFault,
} from "./conformance-target.js";
import { describeCaseSystemConformance } from "./describe-case-system-conformance.js";

// The built-in case system passes the kit on embedded PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (in a schema of its own, dropped afterwards; .ci/run creates the
// database). It places an order in one transaction, so it never leaves an item behind on its own:
// `debtor_address` and `invoice` are arranged here by leaving the item out of the placement and
// reporting it, as a case system that refuses it would (port contract: failedItems).
function builtInKit(
  open: () => Promise<SqlStore>,
  drop?: (store: SqlStore) => Promise<void>,
): Pick<CaseSystemConformanceOptions, "create" | "reset"> {
  const faults: CaseSystemFault[] = [];
  const take = (fault: CaseSystemFault) => {
    const i = faults.indexOf(fault);
    if (i >= 0) faults.splice(i, 1);
    return i >= 0;
  };
  const create = async (): Promise<CaseSystemConformanceTarget> => {
    const store = await open();
    const cases = createBuiltInCaseSystem({ store });
    const caseSystem: CaseSystem = {
      async placeOnCase(input: CasePlacementInput): Promise<CasePlacement> {
        if (take("placement")) throw new Error("case system unavailable");
        const address = take("debtor_address");
        const invoice = take("invoice");
        const placed = await cases.placeOnCase({
          ...input,
          addresses: address ? input.addresses.filter((a) => a.debtorIndex !== 0) : input.addresses,
          invoices: invoice ? input.invoices.filter((i) => i.invoiceIndex !== 0) : input.invoices,
        });
        return address || invoice
          ? {
              ...placed,
              failedItems: { debtorIndexes: address ? [0] : [], invoiceIndexes: invoice ? [0] : [] },
            }
          : placed;
      },
      async storeAttachment(input) {
        if (take("attachment")) throw new Error("file store unavailable");
        await cases.storeAttachment(input);
      },
      addTask: (input) => cases.addTask(input),
      withdrawPlacement: (input) => cases.withdrawPlacement(input),
      caseState: (query) => cases.caseState(query),
      orderPlaced: (input) => cases.orderPlaced?.(input) ?? Promise.resolve(),
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
        resolveTask: ({ taskId, outcome, note }) =>
          outcome === "done"
            ? cases.completeTask({ taskId, note })
            : cases.rejectTask({ taskId, reason: note }),
        closeCase: ({ caseNumber }) => cases.closeCase({ caseNumber }),
      },
      close: async () => {
        await drop?.(store);
        await store.close();
      },
    };
  };
  const reset = async () => {
    faults.length = 0;
  };
  return { create, reset };
}

describeCaseSystemConformance({
  name: "built-in on PGlite",
  ...builtInKit(() => openCaseSystemStore()),
});

const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `case_kit_${randomBytes(6).toString("hex")}`;
  describeCaseSystemConformance({
    name: "built-in on PostgreSQL",
    ...builtInKit(
      () => openCaseSystemStore({ databaseUrl: url, schema }),
      async (store) => {
        await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
      },
    ),
  });
}
