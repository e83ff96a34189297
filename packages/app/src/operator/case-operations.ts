import {
  type CaseList,
  type CasePayment,
  type CaseStatus,
  type CaseSummary,
  type CaseTaskList,
  type CaseTaskView,
  type CaseView,
  createBuiltInCaseSystem,
  createCaseHandler,
  type LetterJobList,
  type LetterJobView,
  type SentLetter,
} from "@incasso/case-system";
import { requireOrganisation } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";

/**
 * A handler's work on the built-in case system (`incasso cases …`, `incasso tasks …`), the same
 * whether the CLI opens the store itself or reaches a running server through its operator
 * endpoint. Organisations are named as in the other operator commands; the rest are the wire
 * objects of @incasso/case-system's `createCaseHandler`.
 *
 * @example
 * const paid = await operations.payCase({ case_number: "2026-000001", amount_cents: 5000 });
 * console.log(paid.balance.balance_due_cents);
 */
export interface CaseOperations {
  listCases(input: {
    organisation?: string;
    status?: CaseStatus;
    open?: boolean;
    limit?: number;
  }): Promise<CaseList>;
  showCase(input: { case_number: string }): Promise<CaseView>;
  payCase(input: {
    case_number: string;
    amount_cents: number;
    payment_date?: string;
    task_id?: string;
  }): Promise<CasePayment>;
  setCaseStatus(input: { case_number: string; status: string }): Promise<CaseSummary>;
  closeCase(input: { case_number: string }): Promise<CaseSummary>;
  /** Makes the 14-day letter, stores it on the case and records it as sent; the PDF as base64. */
  sendCaseLetter(input: { case_number: string }): Promise<SentLetter>;
  listTasks(input: {
    status?: "open" | "done" | "rejected";
    case_number?: string;
    organisation?: string;
    limit?: number;
  }): Promise<CaseTaskList>;
  completeTask(input: { task_id: string; note?: string }): Promise<CaseTaskView>;
  rejectTask(input: { task_id: string; note?: string }): Promise<CaseTaskView>;
  /** Letter jobs of pre-incasso orders still to do, in the making, or failed (decision case-system-wik-letter-jobs). */
  listLetterJobs(input: {
    state?: "pending" | "running" | "failed";
    case_number?: string;
    limit?: number;
  }): Promise<LetterJobList>;
  /** Makes a pending or failed letter job due now with a fresh count of attempts. */
  retryLetterJob(input: { order_id: string }): Promise<LetterJobView>;
}

/**
 * The case operations on an open store, on the built-in case system with its webhook events: each
 * change writes its event into the outbox in the same transaction, and a running dispatcher
 * (the server's, or `incasso worker`) delivers it.
 *
 * @example
 * const ops = directCaseOperations(store);
 * await ops.setCaseStatus({ case_number: "2026-000001", status: "In behandeling" });
 */
export function directCaseOperations(store: SqlStore, options: { now?: () => Date } = {}): CaseOperations {
  const now = options.now ?? (() => new Date());
  const handler = createCaseHandler(createBuiltInCaseSystem({ store, now }), { now });
  const organisationId = async (name: string | undefined) =>
    name === undefined ? undefined : (await requireOrganisation(store, name)).id;
  const withOrganisation = async <T extends { organisation?: string }>(input: T) => {
    const { organisation, ...rest } = input;
    const id = await organisationId(organisation);
    return id === undefined ? rest : { ...rest, organisation_id: id };
  };
  return {
    listCases: async (input) => handler.listCases(await withOrganisation(input)),
    showCase: (input) => handler.showCase(input),
    payCase: (input) => handler.bookPayment(input),
    setCaseStatus: (input) => handler.setStatus(input),
    closeCase: (input) => handler.closeCase(input),
    sendCaseLetter: (input) => handler.sendLetter(input),
    listTasks: async (input) => handler.listTasks(await withOrganisation(input)),
    completeTask: (input) => handler.completeTask(input),
    rejectTask: (input) => handler.rejectTask(input),
    listLetterJobs: (input) => handler.listLetterJobs(input),
    retryLetterJob: (input) => handler.retryLetterJob(input),
  };
}

/**
 * The case operations of a running server, through a caller of its operator endpoint.
 *
 * @example
 * const ops = remoteCaseOperations((op, args) => call(op, args));
 */
export function remoteCaseOperations(call: <T>(op: string, args?: unknown) => Promise<T>): CaseOperations {
  return {
    listCases: (input) => call("list-cases", input),
    showCase: (input) => call("show-case", input),
    payCase: (input) => call("pay-case", input),
    setCaseStatus: (input) => call("set-case-status", input),
    closeCase: (input) => call("close-case", input),
    sendCaseLetter: (input) => call("send-case-letter", input),
    listTasks: (input) => call("list-tasks", input),
    completeTask: (input) => call("complete-task", input),
    rejectTask: (input) => call("reject-task", input),
    listLetterJobs: (input) => call("list-letter-jobs", input),
    retryLetterJob: (input) => call("retry-letter-job", input),
  };
}

/**
 * Runs a case operation named on the operator endpoint; undefined for a name that is not one.
 * The arguments are checked by the case handler's schemas (`invalid_request`).
 *
 * @example
 * const list = await dispatchCaseOperation(operations, "list-cases", { open: true });
 */
export async function dispatchCaseOperation(
  operations: CaseOperations,
  op: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  switch (op) {
    case "list-cases":
      return operations.listCases(args as never);
    case "show-case":
      return operations.showCase(args as never);
    case "pay-case":
      return operations.payCase(args as never);
    case "set-case-status":
      return operations.setCaseStatus(args as never);
    case "close-case":
      return operations.closeCase(args as never);
    case "send-case-letter":
      return operations.sendCaseLetter(args as never);
    case "list-tasks":
      return operations.listTasks(args as never);
    case "complete-task":
      return operations.completeTask(args as never);
    case "reject-task":
      return operations.rejectTask(args as never);
    case "list-letter-jobs":
      return operations.listLetterJobs(args as never);
    case "retry-letter-job":
      return operations.retryLetterJob(args as never);
    default:
      return undefined;
  }
}
