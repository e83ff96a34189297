import type { BuiltInCaseSystem } from "@incasso/case-system";
import { type CaseSystemSteps, placeOnCaseStepwise } from "@incasso/case-system-conformance/stepwise";
import type {
  CaseItemsInput,
  CaseOrderInput,
  CasePlacementInput,
  CaseSystem,
  NormalisedAddress,
  NormalisedInvoice,
  OpenCase,
  OpenCaseQuery,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";

/**
 * A smaller call of a host's case system, as {@link stepwiseHost} offers it.
 *
 * @example
 * const step: StepName = "addItems";
 */
export type StepName =
  | "findOpenCases"
  | "openCase"
  | "joinCase"
  | "addItems"
  | "setDebtorAddress"
  | "addInvoice";

/**
 * A host's case system with only the smaller calls, its `placeOnCase` built by
 * `placeOnCaseStepwise` (decision case-system-port-one-call-placement), failing where told: what
 * the engine does with such a host, over HTTP.
 *
 * @example
 * const host = stepwiseHost(cases, store, { batched: true });
 * host.failNext("addItems");
 */
export interface StepwiseHost {
  caseSystem: CaseSystem;
  readonly calls: Record<StepName, number>;
  failNext(step: StepName, options?: { when?: (input: unknown) => boolean }): void;
  loseAnswers(step: StepName, on: boolean): void;
  reset(): void;
}

/**
 * The smaller calls on the built-in case system's tables: the lookup in SQL, and each write as a
 * `placeOnCase` of the built-in with only that part (its repeats record only what is missing), so
 * the rows the tests count are the built-in's. With `batched` the items go in one `addItems`,
 * otherwise one call per item.
 *
 * @example
 * const host = stepwiseHost(createBuiltInCaseSystem({ store }), store, { batched: false });
 */
export function stepwiseHost(
  inner: BuiltInCaseSystem,
  store: SqlStore,
  options: { batched: boolean },
): StepwiseHost {
  const names: StepName[] = [
    "findOpenCases",
    "openCase",
    "joinCase",
    "addItems",
    "setDebtorAddress",
    "addInvoice",
  ];
  const calls = Object.fromEntries(names.map((s) => [s, 0])) as Record<StepName, number>;
  let planned: { step: StepName; when?: (input: unknown) => boolean }[] = [];
  const losing = new Set<StepName>();
  const wrap =
    <I, O>(step: StepName, call: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      calls[step]++;
      const plan = planned.findIndex((p) => p.step === step && (p.when === undefined || p.when(input)));
      if (plan >= 0) {
        planned.splice(plan, 1);
        throw new Error(`injected failure of ${step}`);
      }
      const result = await call(input);
      if (losing.has(step)) throw new Error(`injected lost answer of ${step}`);
      return result;
    };

  // The case part of each order the host saw, so its item calls can name the order's case part.
  const orders = new Map<string, CaseOrderInput>();
  const place = (
    order: CaseOrderInput,
    items: Partial<Pick<CasePlacementInput, "addresses" | "invoices">> = {},
  ) => inner.placeOnCase({ ...order, addresses: items.addresses ?? [], invoices: items.invoices ?? [] });
  const orderOf = (orderId: string) => {
    const order = orders.get(orderId);
    if (order === undefined) throw new Error(`order ${orderId} is on no case of this host`);
    return order;
  };

  const caseSteps = {
    findOpenCases: wrap("findOpenCases", async (query: OpenCaseQuery) => {
      const { rows } = await store.database.query<{
        case_number: string;
        created_at: Date | string;
        opened_by_order_id: string;
      }>(
        `SELECT DISTINCT c.case_number, c.created_at, c.opened_by_order_id
           FROM case_debtors d JOIN cases c ON c.case_number = d.case_number
          WHERE d.organisation_id = $1 AND d.customer_number = ANY($2::text[])
            AND c.open AND c.creditor_id IS NOT DISTINCT FROM $3`,
        [query.organisationId, query.customerNumbers, query.creditorId],
      );
      return rows.map(
        (r): OpenCase => ({
          caseNumber: r.case_number,
          openedAt: new Date(r.created_at),
          openedByOrderId: r.opened_by_order_id,
        }),
      );
    }),
    openCase: wrap("openCase", async (input: CaseOrderInput) => {
      orders.set(input.orderId, input);
      return { caseNumber: (await place(input)).caseNumber };
    }),
    joinCase: wrap("joinCase", async (input: CaseOrderInput & { caseNumber: string }) => {
      const { caseNumber: _target, ...order } = input;
      orders.set(input.orderId, order);
      return { caseNumber: (await place(order)).caseNumber };
    }),
  };
  const steps: CaseSystemSteps = options.batched
    ? {
        ...caseSteps,
        addItems: wrap("addItems", async (input: CaseItemsInput) => {
          await place(orderOf(input.orderId), input);
        }),
      }
    : {
        ...caseSteps,
        setDebtorAddress: wrap(
          "setDebtorAddress",
          async (input: { orderId: string; debtorIndex: number; address: NormalisedAddress }) => {
            await place(orderOf(input.orderId), {
              addresses: [{ debtorIndex: input.debtorIndex, address: input.address }],
            });
          },
        ),
        addInvoice: wrap(
          "addInvoice",
          async (input: { orderId: string; invoiceIndex: number; invoice: NormalisedInvoice }) => {
            await place(orderOf(input.orderId), {
              invoices: [{ invoiceIndex: input.invoiceIndex, invoice: input.invoice }],
            });
          },
        ),
      };
  return {
    caseSystem: {
      placeOnCase: placeOnCaseStepwise(steps),
      storeAttachment: (i) => inner.storeAttachment(i),
      addTask: (i) => inner.addTask(i),
      caseState: (i) => inner.caseState(i),
    },
    calls,
    failNext(step, o = {}) {
      planned.push({ step, ...(o.when ? { when: o.when } : {}) });
    },
    loseAnswers(step, on) {
      if (on) losing.add(step);
      else losing.delete(step);
    },
    reset() {
      planned = [];
      losing.clear();
    },
  };
}
