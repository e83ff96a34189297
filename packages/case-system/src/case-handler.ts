import { snakeView } from "@incasso/core";
import { amsterdamDate } from "@incasso/wik";
import type { z } from "zod";
import type {
  BuiltInCaseSystem,
  CaseLetter,
  CaseListItem,
  CaseTask,
  LetterJob,
} from "./built-in-case-system.js";
import type { CaseBalance } from "./case-balance.js";
import {
  BookPaymentRequestSchema,
  type CaseBalanceViewSchema,
  type CaseLetterViewSchema,
  type CaseListSchema,
  CaseNumberRequestSchema,
  type CasePaymentSchema,
  type CaseSummarySchema,
  type CaseTaskListSchema,
  type CaseTaskViewSchema,
  type CaseViewSchema,
  ListCasesRequestSchema,
  ListTasksRequestSchema,
  ResolveTaskRequestSchema,
  type SentLetterSchema,
  SetCaseStatusRequestSchema,
  ShowCaseRequestSchema,
} from "./case-handler-schemas.js";
import { CaseSystemError } from "./errors.js";
import type { CaseDetails } from "./internal/case-details.js";
import {
  type LetterJobListSchema,
  type LetterJobViewSchema,
  ListLetterJobsRequestSchema,
  RetryLetterJobRequestSchema,
} from "./letter-job-schemas.js";

/** A case in a list, on the wire. @example const s: CaseSummary = list.data[0]!; */
export type CaseSummary = z.output<typeof CaseSummarySchema>;
/** The case list, on the wire. @example const list: CaseList = await handler.listCases({}); */
export type CaseList = z.output<typeof CaseListSchema>;
/** A case, on the wire. @example const view: CaseView = await handler.showCase({ case_number: "2026-000001" }); */
export type CaseView = z.output<typeof CaseViewSchema>;
/** A task, on the wire. @example const task: CaseTaskView = await handler.completeTask({ task_id }); */
export type CaseTaskView = z.output<typeof CaseTaskViewSchema>;
/** The task list, on the wire. @example const tasks: CaseTaskList = await handler.listTasks({ status: "open" }); */
export type CaseTaskList = z.output<typeof CaseTaskListSchema>;
/** A letter, on the wire. @example const letter: CaseLetterView = view.letters[0]!; */
export type CaseLetterView = z.output<typeof CaseLetterViewSchema>;
/** A letter with its PDF, on the wire. @example const sent: SentLetter = await handler.sendLetter({ case_number }); */
export type SentLetter = z.output<typeof SentLetterSchema>;
/** A booked payment with the new balance. @example const paid: CasePayment = await handler.bookPayment({ case_number, amount_cents: 5000 }); */
export type CasePayment = z.output<typeof CasePaymentSchema>;
/** A balance, on the wire. @example const b: CaseBalanceView = view.balance; */
export type CaseBalanceView = z.output<typeof CaseBalanceViewSchema>;
/** A letter job, on the wire. @example const job: LetterJobView = (await handler.listLetterJobs({})).data[0]!; */
export type LetterJobView = z.output<typeof LetterJobViewSchema>;
/** The letter job list, on the wire. @example const jobs: LetterJobList = await handler.listLetterJobs({ state: "failed" }); */
export type LetterJobList = z.output<typeof LetterJobListSchema>;

/**
 * The handler's operations on the built-in case system, taking and returning snake_case wire
 * objects (schemas in case-handler-schemas). Every change is written with its webhook event in one
 * transaction by the case system (decision case-system-webhook-events).
 *
 * @example
 * const handler: CaseHandler = createCaseHandler(createBuiltInCaseSystem({ store }));
 * await handler.bookPayment({ case_number: "2026-000001", amount_cents: 5000 });
 */
export interface CaseHandler {
  /** Cases newest first. */
  listCases(request?: unknown): Promise<CaseList>;
  /** A case with its orders, debtors, invoices, payments, notes, tasks, letters and balance today. */
  showCase(request: unknown): Promise<CaseView>;
  /** Books a payment (sends `payment.received`) and returns it with the recomputed balance. */
  bookPayment(request: unknown): Promise<CasePayment>;
  /** Moves the case to a status (sends `case.updated`, or `case.closed` for Gesloten). */
  setStatus(request: unknown): Promise<CaseSummary>;
  /** Closes the case (sends `case.closed`). */
  closeCase(request: unknown): Promise<CaseSummary>;
  /** Makes the 14-day letter, stores it and records it as sent (sends `correspondence.sent`). */
  sendLetter(request: unknown): Promise<SentLetter>;
  /** Tasks oldest first. */
  listTasks(request?: unknown): Promise<CaseTaskList>;
  /** Marks a task done; its control request shows `done` (sends `case.updated`). */
  completeTask(request: unknown): Promise<CaseTaskView>;
  /** Rejects a task with a note; its control request shows `rejected` (sends `case.updated`). */
  rejectTask(request: unknown): Promise<CaseTaskView>;
  /** The letter jobs of pre-incasso orders still to do, in the making, or failed; newest first. */
  listLetterJobs(request?: unknown): Promise<LetterJobList>;
  /** Makes a pending or failed letter job due now with a fresh count of attempts. */
  retryLetterJob(request: unknown): Promise<LetterJobView>;
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.join(".") || "(request)";
  throw new CaseSystemError("invalid_request", `${where}: ${issue?.message ?? "invalid"}.`);
}

// Each view is its record's fields snake_cased with ISO timestamps (@incasso/core's snakeView);
// only the fields whose wire name differs are named here.

function summary(c: CaseListItem): CaseSummary {
  return {
    object: "case_summary",
    ...snakeView(c, [
      "caseNumber",
      "organisationId",
      "organisation",
      "creditorName",
      "type",
      "reference",
      "status",
      "open",
      "debtors",
      "invoiceCount",
      "principalCents",
      "paidCents",
      "openTasks",
      "createdAt",
    ]),
  };
}

function taskView(t: CaseTask): CaseTaskView {
  return {
    object: "case_task",
    ...snakeView(t, ["id", "caseNumber", "organisation", "orderId"]),
    action: t.kind,
    ...snakeView(t, [
      "instructions",
      "reason",
      "amountCents",
      "paymentDate",
      "status",
      "resolution",
      "createdAt",
      "resolvedAt",
    ]),
  };
}

function letterView(l: CaseLetter): CaseLetterView {
  return {
    object: "case_letter",
    ...snakeView(l, [
      "id",
      "caseNumber",
      "orderId",
      "kind",
      "filename",
      "letterDate",
      "principalCents",
      "collectionCostsCents",
      "sizeBytes",
      "sentAt",
    ]),
  };
}

function letterJobView(j: LetterJob): LetterJobView {
  return {
    object: "letter_job",
    ...snakeView(j, ["orderId", "caseNumber", "state", "attempts", "dueAt"]),
    runner: j.leaseOwner,
    ...snakeView(j, ["lastError", "createdAt", "updatedAt"]),
  };
}

function balanceView(b: CaseBalance, asOf: string): CaseBalanceView {
  return {
    as_of: asOf,
    ...snakeView(b, [
      "principalCents",
      "collectionCostsCents",
      "interestCents",
      "paidCents",
      "balanceDueCents",
    ]),
  };
}

function caseView(d: CaseDetails, organisation: string, balance: CaseBalanceView): CaseView {
  return {
    object: "case",
    ...snakeView(d, [
      "caseNumber",
      "organisationId",
      "creditor",
      "type",
      "reference",
      "title",
      "description",
      "status",
      "open",
    ]),
    in_treatment: d.treatmentStartedAt !== null,
    ...snakeView(d, ["createdAt", "closedAt"]),
    orders: d.orders.map((o) => snakeView(o, ["orderId", "type", "reference", "addedAt"])),
    debtors: d.debtors.map((x) => ({
      ...snakeView(x, ["orderId", "type", "name", "customerNumber", "address"]),
      order_ids: x.orderIds,
      previous_addresses: x.previousAddresses.map((p) => ({
        address: p.address,
        order_id: p.orderId,
        set_at: p.setAt === null ? null : p.setAt.toISOString(),
      })),
    })),
    invoices: d.invoices.map((i) =>
      snakeView(i, ["orderId", "invoiceNumber", "invoiceDate", "dueDate", "amountCents", "description"]),
    ),
    payments: d.payments.map((p) => snakeView(p, ["id", "amountCents", "paymentDate", "taskId", "bookedAt"])),
    notes: d.notes.map((n) => snakeView(n, ["id", "kind", "text", "createdAt"])),
    tasks: d.tasks.map((t) =>
      taskView({
        id: t.id,
        caseNumber: d.caseNumber,
        organisationId: d.organisationId,
        organisation,
        orderId: t.orderId,
        kind: t.kind,
        instructions: t.instructions,
        reason: t.reason,
        amountCents: t.amountCents,
        paymentDate: t.paymentDate,
        status: t.status,
        resolution: t.resolution,
        createdAt: t.createdAt,
        resolvedAt: t.completedAt,
      }),
    ),
    letters: d.letters.map(letterView),
    balance,
  };
}

/**
 * The handler's operations on a built-in case system, as snake_case wire objects: what `incasso
 * cases …` and `incasso tasks …` call, directly or through a running server's operator endpoint.
 * Requests are checked with the exported schemas (`invalid_request` on a bad one); a missing case
 * or task is `case_not_found` / `task_not_found`.
 *
 * @example
 * import { createBuiltInCaseSystem, createCaseHandler } from "@incasso/case-system";
 * const handler = createCaseHandler(createBuiltInCaseSystem({ store }));
 * await handler.setStatus({ case_number: "2026-000001", status: "In behandeling" });
 * const paid = await handler.bookPayment({ case_number: "2026-000001", amount_cents: 5000, payment_date: "2026-11-20" });
 * paid.balance.balance_due_cents; // the new balance
 */
export function createCaseHandler(cases: BuiltInCaseSystem, options: { now?: () => Date } = {}): CaseHandler {
  const now = options.now ?? (() => new Date());

  async function summaryOf(caseNumber: string): Promise<CaseSummary> {
    const [found] = await cases.listCases({ caseNumber, limit: 1 });
    if (found === undefined) throw new CaseSystemError("case_not_found", `No case ${caseNumber}.`);
    return summary(found);
  }

  async function balanceOf(caseNumber: string): Promise<CaseBalanceView> {
    const today = amsterdamDate(now());
    const balance = await cases.caseBalance({ caseNumber, today });
    if (balance === undefined) throw new CaseSystemError("case_not_found", `No case ${caseNumber}.`);
    return balanceView(balance, today);
  }

  async function task(taskId: string): Promise<CaseTaskView> {
    const found = await cases.getTask({ taskId });
    if (found === undefined) throw new CaseSystemError("task_not_found", `No task ${taskId}.`);
    return taskView(found);
  }

  return {
    async listCases(request) {
      const r = parse(ListCasesRequestSchema, request);
      const list = await cases.listCases({
        ...(r.organisation_id !== undefined ? { organisationId: r.organisation_id } : {}),
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.open !== undefined ? { open: r.open } : {}),
        ...(r.limit !== undefined ? { limit: r.limit } : {}),
      });
      return { object: "list", data: list.map(summary) };
    },

    async showCase(request) {
      const { case_number } = parse(ShowCaseRequestSchema, request);
      const details = await cases.getCase({ caseNumber: case_number });
      if (details === undefined) throw new CaseSystemError("case_not_found", `No case ${case_number}.`);
      const organisation = (await summaryOf(case_number)).organisation;
      return caseView(details, organisation, await balanceOf(case_number));
    },

    async bookPayment(request) {
      const r = parse(BookPaymentRequestSchema, request);
      const at = now();
      const paymentDate = r.payment_date ?? amsterdamDate(at);
      const { paymentId } = await cases.bookPayment({
        caseNumber: r.case_number,
        amountCents: r.amount_cents,
        paymentDate,
        ...(r.task_id !== undefined ? { taskId: r.task_id } : {}),
        at,
      });
      return {
        object: "case_payment",
        id: paymentId,
        case_number: r.case_number,
        amount_cents: r.amount_cents,
        payment_date: paymentDate,
        task_id: r.task_id ?? null,
        booked_at: at.toISOString(),
        balance: await balanceOf(r.case_number),
      };
    },

    async setStatus(request) {
      const r = parse(SetCaseStatusRequestSchema, request);
      await cases.setStatus({ caseNumber: r.case_number, status: r.status, at: now() });
      return summaryOf(r.case_number);
    },

    async closeCase(request) {
      const r = parse(CaseNumberRequestSchema, request);
      await cases.closeCase({ caseNumber: r.case_number, at: now() });
      return summaryOf(r.case_number);
    },

    async sendLetter(request) {
      const r = parse(CaseNumberRequestSchema, request);
      const letter = await cases.sendLetter({ caseNumber: r.case_number, at: now() });
      return { ...letterView(letter), content_base64: Buffer.from(letter.bytes).toString("base64") };
    },

    async listTasks(request) {
      const r = parse(ListTasksRequestSchema, request);
      const list = await cases.listTasks({
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.case_number !== undefined ? { caseNumber: r.case_number } : {}),
        ...(r.organisation_id !== undefined ? { organisationId: r.organisation_id } : {}),
        ...(r.limit !== undefined ? { limit: r.limit } : {}),
      });
      return { object: "list", data: list.map(taskView) };
    },

    async completeTask(request) {
      const r = parse(ResolveTaskRequestSchema, request);
      await cases.completeTask({
        taskId: r.task_id,
        ...(r.case_number !== undefined ? { caseNumber: r.case_number } : {}),
        note: r.note ?? null,
        at: now(),
      });
      return task(r.task_id);
    },

    async rejectTask(request) {
      const r = parse(ResolveTaskRequestSchema, request);
      await cases.rejectTask({
        taskId: r.task_id,
        ...(r.case_number !== undefined ? { caseNumber: r.case_number } : {}),
        reason: r.note ?? null,
        at: now(),
      });
      return task(r.task_id);
    },

    async listLetterJobs(request) {
      const r = parse(ListLetterJobsRequestSchema, request);
      const list = await cases.listLetterJobs({
        ...(r.state !== undefined ? { state: r.state } : {}),
        ...(r.case_number !== undefined ? { caseNumber: r.case_number } : {}),
        ...(r.limit !== undefined ? { limit: r.limit } : {}),
      });
      return { object: "list", data: list.map(letterJobView) };
    },

    async retryLetterJob(request) {
      const r = parse(RetryLetterJobRequestSchema, request);
      return letterJobView(await cases.retryLetterJob({ orderId: r.order_id, at: now() }));
    },
  };
}
