import type { CaseSystem, IncassoStore } from "@incasso/core";

/**
 * A failure the conformance kit asks the case system under test to have on its next placement or
 * upload, the way it really fails (an upstream service down, an item it refuses):
 *
 * | fault | the next … | the API answers |
 * |---|---|---|
 * | `placement` | `placeOnCase` throws and leaves no case behind | 502 `upstream_error`, nothing stored |
 * | `attachment` | `storeAttachment` throws | 201 with `attachment_upload_failed` |
 * | `debtor_address` | `placeOnCase` places the order without its first debtor's address and reports it in `failedItems` | 201 with `debtor_address_failed` |
 * | `invoice` | `placeOnCase` places the order without its first invoice and reports it in `failedItems` | 201 with `claim_attach_failed` |
 *
 * (spec Errors: 502 `upstream_error`; spec Warning codes; the port's contract in @incasso/core.)
 *
 * @example
 * const fault: CaseSystemFault = "debtor_address";
 */
export type CaseSystemFault = "placement" | "attachment" | "debtor_address" | "invoice";

/**
 * What a handler does in the case system under test, so the kit can see its effects through the
 * API and the outbox. Each call returns once the case system has the change; what it reports back
 * (through `createCaseReporter` of @incasso/case-system, or the built-in's own outbox writes) may
 * arrive later: the kit waits for it.
 *
 * @example
 * const handler: ConformanceHandler = {
 *   startTreatment: ({ caseNumber }) => cases.setStatus({ caseNumber, status: "In behandeling" }),
 *   bookPayment: async ({ caseNumber, amountCents, paymentDate }) => { await cases.bookPayment({ caseNumber, amountCents, paymentDate }); },
 *   resolveTask: ({ taskId, outcome, note }) =>
 *     outcome === "done" ? cases.completeTask({ taskId, note }) : cases.rejectTask({ taskId, reason: note }),
 *   closeCase: ({ caseNumber }) => cases.closeCase({ caseNumber }),
 * };
 */
export interface ConformanceHandler {
  /**
   * Takes the case into treatment: from then on its balance, with collection costs and interest,
   * is shown (spec OrderStatus.case.balance_due_cents: "present only once the case is in treatment").
   */
  startTreatment(input: { caseNumber: string }): Promise<void>;
  /** Books a payment on the case; the case system reports `payment_booked` (`payment.received`). */
  bookPayment(input: { caseNumber: string; amountCents: number; paymentDate: string }): Promise<void>;
  /**
   * Resolves the task a control request placed (`taskId` is the request's `act_` id, as `addTask`
   * received it); the case system reports the outcome with the note.
   */
  resolveTask(input: {
    caseNumber: string;
    taskId: string;
    outcome: "done" | "rejected";
    note: string;
  }): Promise<void>;
  /** Closes the case; the case system reports `case_closed` (`case.closed`). */
  closeCase(input: { caseNumber: string }): Promise<void>;
}

/**
 * The case system under test, as `create` of {@link CaseSystemConformanceOptions} hands it over.
 *
 * @example
 * const target: CaseSystemConformanceTarget = {
 *   caseSystem, store, handler, failNext: (fault) => faults.push(fault),
 *   close: () => store.close(),
 * };
 */
export interface CaseSystemConformanceTarget {
  /** The implementation of the port. */
  caseSystem: CaseSystem;
  /**
   * The API's store (@incasso/store-sql's `openStore`, or `openCaseSystemStore` for the built-in),
   * the one whose outbox the case system reports to. The kit issues its keys here, one
   * organisation per test.
   */
  store: IncassoStore;
  /** What a handler does in the case system. */
  handler: ConformanceHandler;
  /** Makes the next call fail as {@link CaseSystemFault} describes. */
  failNext(fault: CaseSystemFault): void | Promise<void>;
  /** Stops what `create` started (the store, a service); called once after the last test. */
  close?(): Promise<void>;
}

/**
 * How {@link describeCaseSystemConformance} gets the case system under test.
 *
 * @example
 * const options: CaseSystemConformanceOptions = { name: "my case system", create: openTarget, reset: async (t) => {} };
 */
export interface CaseSystemConformanceOptions {
  /** Shown in the suite's title; default "case system". */
  name?: string;
  /** Creates the target once, before the first test. */
  create(): Promise<CaseSystemConformanceTarget>;
  /**
   * Runs before every test: forget planned faults and anything else a test may leave behind. The
   * kit keeps tests apart itself (a fresh organisation and customer numbers per test), so it need
   * not empty the case system.
   */
  reset(target: CaseSystemConformanceTarget): Promise<void>;
  /** How long the kit waits for a reported outcome or event to reach the store; default 10 000 ms. */
  reportTimeoutMs?: number;
}
