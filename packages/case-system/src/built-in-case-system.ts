import type { CasePlacement, CasePlacementInput, CaseSystem, PlacementWithdrawalInput } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import type { CaseBalance } from "./case-balance.js";
import type { CaseChangeListener } from "./case-change.js";
import type { CaseStatus } from "./case-statuses.js";
import { balanceAndPayments } from "./internal/balance-and-payments.js";
import type { CaseDetails } from "./internal/case-details.js";
import { caseReads } from "./internal/case-reads.js";
import { caseSystemContext } from "./internal/case-writes.js";
import { handlerOperations } from "./internal/handler-operations.js";
import type * as h from "./internal/handler-queries.js";
import type * as jobs from "./internal/letter-job-queries.js";
import { letterOperations } from "./internal/letter-operations.js";
import { portWrites } from "./internal/port-writes.js";
import { withdrawPlacement } from "./internal/withdraw-placement.js";

/**
 * A case in {@link BuiltInCaseSystem.listCases}.
 *
 * @example
 * const cases: CaseListItem[] = await caseSystem.listCases({ open: true });
 */
export type CaseListItem = h.CaseListItem;

/**
 * A task in {@link BuiltInCaseSystem.listTasks}, with its case and organisation.
 *
 * @example
 * const open: CaseTask[] = await caseSystem.listTasks({ status: "open" });
 */
export type CaseTask = h.TaskRow;

/**
 * A letter of a case without its bytes ({@link BuiltInCaseSystem.readLetter} has them).
 *
 * @example
 * const letters: CaseLetter[] = (await caseSystem.getCase({ caseNumber }))?.letters ?? [];
 */
export type CaseLetter = h.LetterRow;

/**
 * The letter job of a pre-incasso order in {@link BuiltInCaseSystem.listLetterJobs}: pending (due
 * at `dueAt`), running (leased until `dueAt`) or failed; a made letter deletes its job.
 *
 * @example
 * const failed: LetterJob[] = await caseSystem.listLetterJobs({ state: "failed" });
 */
export type LetterJob = jobs.LetterJobRow;

/**
 * Options of {@link createBuiltInCaseSystem}.
 *
 * @example
 * const options: BuiltInCaseSystemOptions = { store, onChange: async (change, tx) => { ... } };
 */
export interface BuiltInCaseSystemOptions {
  /** The store whose database holds the case tables ({@link CASE_SYSTEM_MIGRATIONS}). */
  store: Pick<SqlStore, "database">;
  /**
   * Called for every change inside the change's own transaction, with the executor and the store's
   * repositories of that transaction: the place to write webhook outbox rows atomically.
   */
  onChange?: CaseChangeListener;
  /**
   * Write the spec's webhook events into the store's outbox in the transaction of each change that
   * sends one (see `caseChangeEvent`; decision case-system-webhook-events). Default true; false for
   * a host that sends its own events from `onChange`.
   */
  webhookEvents?: boolean;
  /** The clock of the handler functions; default the system clock. */
  now?: () => Date;
}

/**
 * The built-in case system: the {@link CaseSystem} port for the order engine plus the functions a
 * handler (or a host's back office) uses to work a case.
 *
 * @example
 * const cases = createBuiltInCaseSystem({ store });
 * await cases.setStatus({ caseNumber: "2026-000001", status: "In behandeling" });
 */
export interface BuiltInCaseSystem extends CaseSystem {
  /**
   * Places an order on a case in one transaction (CaseSystem port; decision
   * case-system-port-one-call-placement): a lock per customer number, so two orders for one
   * debtor at the same moment end on one case, then one statement that finds the oldest open
   * case, joins it or opens a new one, and records the debtors, addresses, invoices and note. On
   * PostgreSQL an order that opens a case is one round trip. The merge rule is core's
   * `chooseOpenCase` (decision orders-engine-multiple-open-cases), applied inside the statement.
   */
  placeOnCase(input: CasePlacementInput): Promise<CasePlacement>;
  /**
   * Undoes the placement of an order whose order row was never stored (CaseSystem port; decision
   * orders-engine-placement-intents): in one transaction every row the order wrote, and its case
   * when the order opened it and nothing else is on it.
   */
  withdrawPlacement(input: PlacementWithdrawalInput): Promise<void>;
  /** The whole case, or undefined; with `organisationId`, only that organisation's case. */
  getCase(query: { caseNumber: string; organisationId?: string }): Promise<CaseDetails | undefined>;
  /**
   * Moves a case to a status. Entering `In behandeling` the first time starts the treatment (from
   * then on the balance includes costs and interest); `Gesloten` closes the case.
   */
  setStatus(input: { caseNumber: string; status: CaseStatus; at?: Date }): Promise<void>;
  /**
   * Books a payment on the case. With `taskId`, the payment report it answers: the task must be a
   * `payments` task of the case, and it is marked done with its control request in the same
   * transaction.
   */
  bookPayment(input: {
    caseNumber: string;
    amountCents: number;
    paymentDate: string;
    taskId?: string;
    at?: Date;
  }): Promise<{ paymentId: string }>;
  /**
   * Marks an open task done and moves the order's control request to `done`; a repeat changes
   * nothing. Without `caseNumber` the task is found by its id.
   */
  completeTask(input: {
    caseNumber?: string;
    taskId: string;
    note?: string | null;
    at?: Date;
  }): Promise<void>;
  /** Rejects an open task with the handler's reason and moves the order's control request to `rejected`. */
  rejectTask(input: {
    caseNumber?: string;
    taskId: string;
    reason?: string | null;
    at?: Date;
  }): Promise<void>;
  /** Tasks oldest first; by default every status, at most 100. */
  listTasks(query?: {
    status?: CaseTask["status"];
    caseNumber?: string;
    organisationId?: string;
    limit?: number;
  }): Promise<CaseTask[]>;
  /** One task, or undefined. */
  getTask(query: { taskId: string }): Promise<CaseTask | undefined>;
  /** Cases newest first; at most 100 unless `limit` says otherwise. */
  listCases(query?: {
    organisationId?: string;
    caseNumber?: string;
    status?: CaseStatus;
    open?: boolean;
    limit?: number;
  }): Promise<CaseListItem[]>;
  /** Moves the case to `Gesloten` (sends `case.closed`); closing a closed case changes nothing. */
  closeCase(input: { caseNumber: string; at?: Date }): Promise<void>;
  /**
   * Produces the statutory 14-day letter of the case as a PDF (every invoice on the case, costs on
   * their sum), stores it on the case and records it as sent, which sends `correspondence.sent`.
   * With `orderId` it is that order's letter and made once (a repeat returns the stored one).
   */
  sendLetter(input: {
    caseNumber: string;
    orderId?: string;
    at?: Date;
  }): Promise<CaseLetter & { bytes: Uint8Array }>;
  /** A stored letter with its bytes. */
  readLetter(input: {
    caseNumber: string;
    letterId: string;
  }): Promise<(CaseLetter & { bytes: Uint8Array }) | undefined>;
  /** The balance of the case today (Europe/Amsterdam), whether or not treatment has started. */
  caseBalance(query: { caseNumber: string; today?: string }): Promise<CaseBalance | undefined>;
  /**
   * The work of a letter job (the letter runner calls it): the order's 14-day letter as
   * `sendLetter` with `orderId` makes it, with the job deleted in the letter's transaction; when the
   * order has its letter already, only the job is deleted (`made` false).
   */
  makeOrderLetter(input: { caseNumber: string; orderId: string; at?: Date }): Promise<{
    letterId: string;
    made: boolean;
  }>;
  /** Letter jobs still to do or failed, newest first; at most 100 unless `limit` says otherwise. */
  listLetterJobs(query?: {
    state?: LetterJob["state"];
    caseNumber?: string;
    limit?: number;
  }): Promise<LetterJob[]>;
  /**
   * Makes a pending or failed letter job due now with a fresh count of attempts (after the cause of
   * a failure is repaired).
   */
  retryLetterJob(input: { orderId: string; at?: Date }): Promise<LetterJob>;
  /** Adds a handler's note. */
  addNote(input: { caseNumber: string; text: string; at?: Date }): Promise<{ noteId: string }>;
  /** The bytes of a stored attachment. */
  readAttachment(input: {
    caseNumber: string;
    orderId: string;
    position: number;
  }): Promise<{ filename: string; documentType: string | null; bytes: Uint8Array } | undefined>;
}

/**
 * Creates the built-in case system on the store's database (decisions case-system-*.md): case
 * numbers `YYYY-NNNNNN`, statuses Nieuw, In behandeling, Aangehouden, Gesloten, debtors with
 * addresses, invoices, attachments kept as bytes in the database, notes, tasks and payments, and
 * the balance with collection costs and interest through @incasso/wik once the case is in
 * treatment. Every write of the port is idempotent on the order id.
 *
 * @example
 * const store = await openCaseSystemStore(); // the store with CASE_SYSTEM_MIGRATIONS
 * const cases = createBuiltInCaseSystem({ store });
 * const engine = createOrderEngine({ store, caseSystem: cases }); // @incasso/core
 */
export function createBuiltInCaseSystem(options: BuiltInCaseSystemOptions): BuiltInCaseSystem {
  // One database, write funnel and clock shared by the parts, each in a file named for what it does.
  const ctx = caseSystemContext(options);
  return {
    ...portWrites(ctx),
    withdrawPlacement: (input) => withdrawPlacement(ctx, input),
    ...caseReads(ctx),
    ...balanceAndPayments(ctx),
    ...handlerOperations(ctx),
    ...letterOperations(ctx),
  };
}
