import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type {
  CaseList,
  CasePayment,
  CaseStatus,
  CaseSummary,
  CaseView,
  LetterJobList,
  LetterJobView,
  SentLetter,
} from "@incasso/case-system";
import { formatDutchEuro } from "@incasso/core";
import { caseLine, caseText, letterJobLine, one } from "../cli/case-text.js";
import { flag, LIMIT_FLAG, ORGANISATION_FLAG } from "../cli/common-flags.js";
import type { FlagValues } from "../cli/flag-spec.js";
import { positiveInt, text } from "../cli/flag-values.js";
import { UsageError } from "../cli/usage-error.js";
import { defineOperation, type OperationContext } from "./operator-operation.js";

// The operations on the cases of the built-in case system (`incasso cases …`). Their inputs and
// results are the wire objects of @incasso/case-system's `createCaseHandler`, whose schemas check
// them (`invalid_request`); organisations are named as in the other operator commands.

/**
 * An input with the organisation named, as the case handler takes it: by id.
 *
 * @example
 * await context.cases.listCases(await byOrganisationId(context, { organisation: "Acme BV", open: true }));
 */
export async function byOrganisationId<T extends { organisation?: string }>(
  context: OperationContext,
  input: T,
): Promise<Omit<T, "organisation"> | (Omit<T, "organisation"> & { organisation_id: string })> {
  const { organisation, ...rest } = input;
  return organisation === undefined
    ? rest
    : { ...rest, organisation_id: await context.organisationId(organisation) };
}

const caseNumber = (command: string) => (_values: FlagValues, positionals: string[]) => ({
  case_number: one(positionals, "case number", command),
});

/**
 * `list-cases`: cases newest first.
 *
 * @example
 * const list = await operations.listCases({ open: true });
 */
export const listCases = defineOperation({
  name: "list-cases",
  fields: { organisation: "string?", status: "string?", open: "boolean?", limit: "number?" },
  run: async (
    context,
    input: { organisation?: string; status?: CaseStatus; open?: boolean; limit?: number },
  ): Promise<CaseList> => context.cases.listCases(await byOrganisationId(context, input)),
  cli: {
    group: "cases",
    command: "list",
    summary: "cases of the built-in case system, newest first",
    flags: [
      ORGANISATION_FLAG,
      flag("status", 'Nieuw, "In behandeling", Aangehouden or Gesloten', "STATUS"),
      flag("open", "open cases only"),
      flag("closed", "closed cases only"),
      LIMIT_FLAG,
    ],
    input(values) {
      if (values.open && values.closed) throw new UsageError("--open and --closed exclude each other");
      const limit = positiveInt(values, "limit");
      const organisation = text(values, "organisation");
      const status = text(values, "status");
      return {
        ...(organisation !== undefined ? { organisation } : {}),
        ...(status !== undefined ? { status: status as CaseStatus } : {}),
        ...(values.open ? { open: true } : values.closed ? { open: false } : {}),
        ...(limit ? { limit } : {}),
      };
    },
    text: (list) => (list.data.length === 0 ? "No cases." : list.data.map(caseLine).join("\n")),
  },
});

/**
 * `show-case`: a case with its orders, debtors, invoices, payments, notes, tasks, letters and balance.
 *
 * @example
 * const view = await operations.showCase({ case_number: "2026-000001" });
 */
export const showCase = defineOperation({
  name: "show-case",
  fields: { case_number: "string" },
  run: (context, input: { case_number: string }): Promise<CaseView> => context.cases.showCase(input),
  cli: {
    group: "cases",
    command: "show",
    summary: "a case: invoices, payments, notes, tasks, letters, balance",
    args: ["<case>"],
    flags: [],
    input: caseNumber("cases show"),
    text: caseText,
  },
});

/**
 * `pay-case`: books a payment (sends `payment.received`) and returns it with the new balance.
 *
 * @example
 * const paid = await operations.payCase({ case_number: "2026-000001", amount_cents: 5000 });
 */
export const payCase = defineOperation({
  name: "pay-case",
  fields: { case_number: "string", amount_cents: "number", payment_date: "string?", task_id: "string?" },
  run: (
    context,
    input: { case_number: string; amount_cents: number; payment_date?: string; task_id?: string },
  ): Promise<CasePayment> => context.cases.bookPayment(input),
  cli: {
    group: "cases",
    command: "pay",
    summary: "book a payment (sends payment.received)",
    args: ["<case>"],
    flags: [
      flag("amount-cents", "the amount received, in cents: 1 or more", "N"),
      flag("date", "the day it was received; default today", "YYYY-MM-DD"),
      flag("task", "the payment report it answers, which is then done", "ID"),
    ],
    input(values, positionals) {
      const case_number = one(positionals, "case number", "cases pay");
      const amount = positiveInt(values, "amount-cents", "a positive whole number of cents");
      if (amount === undefined) throw new UsageError("--amount-cents is required");
      const date = text(values, "date");
      const task = text(values, "task");
      return {
        case_number,
        amount_cents: amount,
        ...(date !== undefined ? { payment_date: date } : {}),
        ...(task !== undefined ? { task_id: task } : {}),
      };
    },
    text: (paid) => {
      const b = paid.balance;
      return [
        `Booked ${formatDutchEuro(paid.amount_cents)} received ${paid.payment_date} on ${paid.case_number} (${paid.id})${paid.task_id ? `; task ${paid.task_id} is done` : ""}.`,
        `Balance on ${b.as_of}: principal ${formatDutchEuro(b.principal_cents)} + costs ${formatDutchEuro(b.collection_costs_cents)} + interest ${formatDutchEuro(b.interest_cents)} - paid ${formatDutchEuro(b.paid_cents)} = ${formatDutchEuro(b.balance_due_cents)}.`,
      ].join("\n");
    },
  },
});

/**
 * `set-case-status`: moves the case to a status (sends `case.updated`, or `case.closed` for Gesloten).
 *
 * @example
 * await operations.setCaseStatus({ case_number: "2026-000001", status: "In behandeling" });
 */
export const setCaseStatus = defineOperation({
  name: "set-case-status",
  fields: { case_number: "string", status: "string" },
  run: (context, input: { case_number: string; status: string }): Promise<CaseSummary> =>
    context.cases.setStatus(input),
  cli: {
    group: "cases",
    command: "status",
    summary: 'set the status: Nieuw, "In behandeling", Aangehouden or Gesloten',
    args: ["<case>", "<status>"],
    flags: [],
    input(_values, positionals) {
      const [case_number, status] = positionals;
      if (case_number === undefined || status === undefined || positionals.length !== 2) {
        throw new UsageError(
          'cases status takes a case number and a status, such as: cases status 2026-000001 "In behandeling"',
        );
      }
      return { case_number, status };
    },
    text: (moved) => `${moved.case_number} is ${moved.status}${moved.open ? "" : " (closed)"}.`,
  },
});

/**
 * `close-case`: closes the case (sends `case.closed`).
 *
 * @example
 * await operations.closeCase({ case_number: "2026-000001" });
 */
export const closeCase = defineOperation({
  name: "close-case",
  fields: { case_number: "string" },
  run: (context, input: { case_number: string }): Promise<CaseSummary> => context.cases.closeCase(input),
  cli: {
    group: "cases",
    command: "close",
    summary: "close the case (sends case.closed)",
    args: ["<case>"],
    flags: [],
    input: caseNumber("cases close"),
    text: (closed) => `${closed.case_number} is closed (${closed.status}).`,
  },
});

/** Where `cases letter` writes the PDF: --out, else the letter's own name. */
const letterFile = (letter: SentLetter, values: FlagValues) =>
  resolve(text(values, "out") ?? letter.filename);

/**
 * `send-case-letter`: makes the 14-day letter, stores it on the case and records it as sent; the
 * PDF as base64.
 *
 * @example
 * const letter = await operations.sendCaseLetter({ case_number: "2026-000001" });
 */
export const sendCaseLetter = defineOperation({
  name: "send-case-letter",
  fields: { case_number: "string" },
  run: (context, input: { case_number: string }): Promise<SentLetter> => context.cases.sendLetter(input),
  cli: {
    group: "cases",
    command: "letter",
    summary: "make the 14-day letter, record it as sent and write the PDF",
    args: ["<case>"],
    flags: [flag("out", "where to write the PDF; default: its name", "FILE")],
    input: caseNumber("cases letter"),
    effect: (letter, _input, values) =>
      writeFileSync(letterFile(letter, values), Buffer.from(letter.content_base64, "base64")),
    // The PDF is in the file; the JSON names the file instead of repeating it.
    json: ({ content_base64: _pdf, ...summary }, _input, values) => ({
      ...summary,
      file: letterFile(summary as SentLetter, values),
    }),
    text: (letter, _input, values) =>
      [
        `Letter ${letter.id} for ${letter.case_number} (${letter.letter_date}) is recorded as sent: costs ${formatDutchEuro(letter.collection_costs_cents)} on ${formatDutchEuro(letter.principal_cents)}.`,
        `Written to ${letterFile(letter, values)} (${Buffer.from(letter.content_base64, "base64").byteLength} bytes).`,
      ].join("\n"),
  },
});

type LetterJobState = "pending" | "running" | "failed";

/**
 * `list-letter-jobs`: letter jobs of pre-incasso orders still to do, in the making, or failed
 * (decision case-system-wik-letter-jobs).
 *
 * @example
 * const failed = await operations.listLetterJobs({ state: "failed" });
 */
export const listLetterJobs = defineOperation({
  name: "list-letter-jobs",
  fields: { state: "string?", case_number: "string?", limit: "number?" },
  run: (
    context,
    input: { state?: LetterJobState; case_number?: string; limit?: number },
  ): Promise<LetterJobList> => context.cases.listLetterJobs(input),
  cli: {
    group: "cases",
    command: "letter-jobs",
    summary: "14-day letters not made yet, and those that failed for good",
    flags: [
      flag("failed", "failed jobs only, as --state failed"),
      flag("state", "pending, running or failed", "STATE"),
      flag("case", "the jobs of one case", "CASE"),
      LIMIT_FLAG,
    ],
    input(values) {
      const given = text(values, "state");
      const state = values.failed ? "failed" : given;
      if (state !== undefined && !["pending", "running", "failed"].includes(state)) {
        throw new UsageError(`--state must be pending, running or failed, not ${state}`);
      }
      if (values.failed && given !== undefined && given !== "failed") {
        throw new UsageError("--failed and --state exclude each other");
      }
      const limit = positiveInt(values, "limit");
      const caseNumber = text(values, "case");
      return {
        ...(state !== undefined ? { state: state as LetterJobState } : {}),
        ...(caseNumber !== undefined ? { case_number: caseNumber } : {}),
        ...(limit ? { limit } : {}),
      };
    },
    text: (list, input) =>
      list.data.length === 0
        ? input.state === undefined
          ? "No letter jobs: every letter is made."
          : `No ${input.state} letter jobs.`
        : list.data.map(letterJobLine).join("\n"),
  },
});

/**
 * `retry-letter-job`: makes a pending or failed letter job due now with a fresh count of attempts.
 *
 * @example
 * await operations.retryLetterJob({ order_id: "ord_0123456789abcdef" });
 */
export const retryLetterJob = defineOperation({
  name: "retry-letter-job",
  fields: { order_id: "string" },
  run: (context, input: { order_id: string }): Promise<LetterJobView> => context.cases.retryLetterJob(input),
  cli: {
    group: "cases",
    command: "retry-letter",
    summary: "try a failed letter job again now, with fresh attempts",
    args: ["<order-id>"],
    flags: [],
    input: (_values, positionals) => ({ order_id: one(positionals, "order id", "cases retry-letter") }),
    text: (job) =>
      `The letter job of ${job.order_id} (${job.case_number}) is due now; a running letter runner makes it.`,
  },
});
