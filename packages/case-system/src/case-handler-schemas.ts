import { z } from "zod";
import { CASE_STATUSES } from "./case-statuses.js";

// The wire objects of the handler's operations (createCaseHandler): snake_case like the spec's
// objects, so the CLI's --json output, the operator endpoint and any HTTP route share one shape.

const Timestamp = z.iso.datetime({ offset: true });
const IsoDate = z.iso.date();
const CaseNumber = z.string().min(1).max(50).describe("The case number, such as 2026-000001.");
const TaskId = z
  .string()
  .min(1)
  .max(50)
  .describe("The task id: the action id `act_…` of the control request.");

/**
 * A case status (decision case-system-statuses).
 *
 * @example
 * CaseStatusSchema.parse("In behandeling");
 */
export const CaseStatusSchema = z.enum(CASE_STATUSES).meta({
  id: "CaseStatus",
  description: "Nieuw, In behandeling, Aangehouden (open) or Gesloten (closed).",
});

/**
 * Request of {@link CaseHandler.listCases}.
 *
 * @example
 * ListCasesRequestSchema.parse({ open: true, limit: 50 });
 */
export const ListCasesRequestSchema = z
  .object({
    organisation_id: z.string().min(1).optional().describe("Only this organisation's cases."),
    status: CaseStatusSchema.optional(),
    open: z.boolean().optional().describe("Only open (true) or closed (false) cases."),
    limit: z.int().min(1).max(1000).optional().describe("Default 100."),
  })
  .strict()
  .meta({ id: "ListCasesRequest", description: "Filters of the handler's case list." });

/**
 * One case in a list.
 *
 * @example
 * CaseSummarySchema.parse({ object: "case_summary", case_number: "2026-000001", organisation_id: "org_0123456789abcdef",
 *   organisation: "Acme BV", creditor_name: "Acme BV", type: "incasso", reference: null, status: "Nieuw", open: true,
 *   debtors: "Voorbeeld B.V.", invoice_count: 1, principal_cents: 125000, paid_cents: 0, open_tasks: 0,
 *   created_at: "2026-11-21T10:00:00.000Z" });
 */
export const CaseSummarySchema = z
  .object({
    object: z.literal("case_summary"),
    case_number: CaseNumber,
    organisation_id: z.string(),
    organisation: z.string().describe("The organisation's name."),
    creditor_name: z.string(),
    type: z.enum(["pre-incasso", "incasso"]),
    reference: z.string().nullable().describe("The client's reference of the order that opened the case."),
    status: CaseStatusSchema,
    open: z.boolean(),
    debtors: z.string().describe("Debtor names, comma-separated."),
    invoice_count: z.int(),
    principal_cents: z.int().describe("Sum of the invoices on the case."),
    paid_cents: z.int().describe("Sum of the payments booked on the case."),
    open_tasks: z.int(),
    created_at: Timestamp,
  })
  .meta({ id: "CaseSummary", description: "A case in the handler's list." });

/**
 * Response of {@link CaseHandler.listCases}.
 *
 * @example
 * CaseListSchema.parse({ object: "list", data: [] });
 */
export const CaseListSchema = z
  .object({ object: z.literal("list"), data: z.array(CaseSummarySchema) })
  .meta({ id: "CaseList", description: "Cases, newest first." });

/**
 * A task on a case: a control request of the client for a handler.
 *
 * @example
 * CaseTaskViewSchema.parse({ object: "case_task", id: "act_0123456789abcdef", case_number: "2026-000001",
 *   organisation: "Acme BV", order_id: "ord_0123456789abcdef", action: "hold", instructions: "…", reason: null,
 *   amount_cents: null, payment_date: null, status: "open", resolution: null,
 *   created_at: "2026-11-21T10:00:00.000Z", resolved_at: null });
 */
export const CaseTaskViewSchema = z
  .object({
    object: z.literal("case_task"),
    id: TaskId,
    case_number: CaseNumber,
    organisation: z.string(),
    order_id: z.string().nullable(),
    action: z.string().describe("hold, withdraw or payments."),
    instructions: z.string().describe("Dutch instructions for the handler."),
    reason: z.string().nullable().describe("The client's reason."),
    amount_cents: z.int().nullable().describe("The reported amount of a payment report."),
    payment_date: IsoDate.nullable(),
    status: z
      .enum(["open", "done", "rejected"])
      .describe("Also the status of the order's control request once it is no longer open."),
    resolution: z.string().nullable().describe("The handler's note when resolving it."),
    created_at: Timestamp,
    resolved_at: Timestamp.nullable(),
  })
  .meta({ id: "CaseTask", description: "A task for a handler, placed by a control request." });

/**
 * A letter of a case, recorded as sent.
 *
 * @example
 * CaseLetterViewSchema.parse({ object: "case_letter", id: "let_0123456789abcdef", case_number: "2026-000001",
 *   order_id: null, kind: "wik_letter", filename: "aanmaning-2026-000001-2026-11-21.pdf", letter_date: "2026-11-21",
 *   principal_cents: 125000, collection_costs_cents: 18750, size_bytes: 2100, sent_at: "2026-11-21T10:00:00.000Z" });
 */
export const CaseLetterViewSchema = z
  .object({
    object: z.literal("case_letter"),
    id: z.string(),
    case_number: CaseNumber,
    order_id: z.string().nullable().describe("The order it was made for; null when a handler made it."),
    kind: z.literal("wik_letter").describe("The statutory 14-day letter (art. 6:96 lid 6 BW)."),
    filename: z.string(),
    letter_date: IsoDate,
    principal_cents: z.int().describe("The outstanding principal the letter asks for."),
    collection_costs_cents: z.int().describe("The collection costs the letter states."),
    size_bytes: z.int(),
    sent_at: Timestamp,
  })
  .meta({ id: "CaseLetter", description: "A letter made on a case and recorded as sent." });

/**
 * The balance of a case on a day (indicative; decision case-system-balance).
 *
 * @example
 * CaseBalanceViewSchema.parse({ as_of: "2026-11-21", principal_cents: 125000, collection_costs_cents: 18750,
 *   interest_cents: 0, paid_cents: 0, balance_due_cents: 143750 });
 */
export const CaseBalanceViewSchema = z
  .object({
    as_of: IsoDate,
    principal_cents: z.int(),
    collection_costs_cents: z.int(),
    interest_cents: z.int(),
    paid_cents: z.int(),
    balance_due_cents: z.int(),
  })
  .meta({ id: "CaseBalance", description: "Principal, costs, interest and payments of a case." });

const Address = z.object({
  street: z.string(),
  house_number: z.string(),
  house_number_suffix: z.string().nullable(),
  postal_code: z.string(),
  city: z.string(),
  country: z.string(),
});

/**
 * Request of {@link CaseHandler.showCase}.
 *
 * @example
 * ShowCaseRequestSchema.parse({ case_number: "2026-000001" });
 */
export const ShowCaseRequestSchema = z
  .object({ case_number: CaseNumber })
  .strict()
  .meta({ id: "ShowCaseRequest", description: "The case to show." });

/**
 * Response of {@link CaseHandler.showCase}: everything on the case and its balance today.
 *
 * @example
 * const view = CaseViewSchema.parse(await handler.showCase({ case_number: "2026-000001" }));
 */
export const CaseViewSchema = z
  .object({
    object: z.literal("case"),
    case_number: CaseNumber,
    organisation_id: z.string(),
    creditor: z.object({ id: z.string().nullable(), name: z.string() }),
    type: z.enum(["pre-incasso", "incasso"]),
    reference: z.string().nullable(),
    title: z.string(),
    description: z.string().nullable(),
    status: CaseStatusSchema,
    open: z.boolean(),
    in_treatment: z.boolean().describe("Treatment started: GET /orders/{orderId} shows balance_due_cents."),
    created_at: Timestamp,
    closed_at: Timestamp.nullable(),
    orders: z.array(
      z.object({
        order_id: z.string(),
        type: z.string(),
        reference: z.string().nullable(),
        added_at: Timestamp,
      }),
    ),
    debtors: z
      .array(
        z.object({
          order_id: z.string().describe("The order that first named the debtor."),
          type: z.enum(["business", "individual"]),
          name: z.string(),
          customer_number: z.string().nullable(),
          address: Address.nullable().describe("The newest address an order gave."),
          order_ids: z.array(z.string()).describe("Every order that named the debtor, oldest first."),
          previous_addresses: z
            .array(z.object({ address: Address, order_id: z.string(), set_at: Timestamp.nullable() }))
            .describe("Earlier addresses, oldest first, with the order that gave each."),
        }),
      )
      .describe(
        "Each debtor once: orders naming the same customer number and name (or without a customer number the same name and address) are one debtor.",
      ),
    invoices: z.array(
      z.object({
        order_id: z.string(),
        invoice_number: z.string(),
        invoice_date: IsoDate,
        due_date: IsoDate,
        amount_cents: z.int(),
        description: z.string().nullable(),
      }),
    ),
    payments: z.array(
      z.object({
        id: z.string(),
        amount_cents: z.int(),
        payment_date: IsoDate,
        task_id: z.string().nullable(),
        booked_at: Timestamp,
      }),
    ),
    notes: z.array(z.object({ id: z.string(), kind: z.string(), text: z.string(), created_at: Timestamp })),
    tasks: z.array(CaseTaskViewSchema),
    letters: z.array(CaseLetterViewSchema),
    balance: CaseBalanceViewSchema,
  })
  .meta({ id: "Case", description: "A case of the built-in case system as a handler sees it." });

/**
 * Request of {@link CaseHandler.bookPayment}.
 *
 * @example
 * BookPaymentRequestSchema.parse({ case_number: "2026-000001", amount_cents: 5000, payment_date: "2026-11-20" });
 */
export const BookPaymentRequestSchema = z
  .object({
    case_number: CaseNumber,
    amount_cents: z.int().min(1).max(100_000_000_000).describe("The amount received, in euro cents."),
    payment_date: IsoDate.optional().describe("Date of receipt; default today (Europe/Amsterdam)."),
    task_id: TaskId.optional().describe("The payment report this payment answers; the task is marked done."),
  })
  .strict()
  .meta({ id: "BookPaymentRequest", description: "A payment to book on a case." });

/**
 * Response of {@link CaseHandler.bookPayment}: the payment and the recomputed balance.
 *
 * @example
 * const booked = CasePaymentSchema.parse(await handler.bookPayment({ case_number: "2026-000001", amount_cents: 5000 }));
 */
export const CasePaymentSchema = z
  .object({
    object: z.literal("case_payment"),
    id: z.string(),
    case_number: CaseNumber,
    amount_cents: z.int(),
    payment_date: IsoDate,
    task_id: z.string().nullable(),
    booked_at: Timestamp,
    balance: CaseBalanceViewSchema,
  })
  .meta({ id: "CasePayment", description: "A booked payment with the case's new balance." });

/**
 * Request of {@link CaseHandler.setStatus}.
 *
 * @example
 * SetCaseStatusRequestSchema.parse({ case_number: "2026-000001", status: "In behandeling" });
 */
export const SetCaseStatusRequestSchema = z
  .object({ case_number: CaseNumber, status: CaseStatusSchema })
  .strict()
  .meta({ id: "SetCaseStatusRequest", description: "The status to move a case to." });

/**
 * Request of {@link CaseHandler.closeCase} and {@link CaseHandler.sendLetter}.
 *
 * @example
 * CaseNumberRequestSchema.parse({ case_number: "2026-000001" });
 */
export const CaseNumberRequestSchema = z
  .object({ case_number: CaseNumber })
  .strict()
  .meta({ id: "CaseNumberRequest", description: "The case to act on." });

/**
 * Response of {@link CaseHandler.sendLetter}: the letter recorded as sent, with the PDF.
 *
 * @example
 * const sent = SentLetterSchema.parse(await handler.sendLetter({ case_number: "2026-000001" }));
 * await writeFile(sent.filename, Buffer.from(sent.content_base64, "base64"));
 */
export const SentLetterSchema = CaseLetterViewSchema.extend({
  content_base64: z.string().describe("The PDF, base64."),
}).meta({ id: "SentLetter", description: "A letter made, stored on the case and recorded as sent." });

/**
 * Request of {@link CaseHandler.listTasks}.
 *
 * @example
 * ListTasksRequestSchema.parse({ status: "open" });
 */
export const ListTasksRequestSchema = z
  .object({
    status: z.enum(["open", "done", "rejected"]).optional(),
    case_number: CaseNumber.optional(),
    organisation_id: z.string().min(1).optional(),
    limit: z.int().min(1).max(1000).optional().describe("Default 100."),
  })
  .strict()
  .meta({ id: "ListTasksRequest", description: "Filters of the handler's task list." });

/**
 * Response of {@link CaseHandler.listTasks}.
 *
 * @example
 * CaseTaskListSchema.parse({ object: "list", data: [] });
 */
export const CaseTaskListSchema = z
  .object({ object: z.literal("list"), data: z.array(CaseTaskViewSchema) })
  .meta({ id: "CaseTaskList", description: "Tasks, oldest first." });

/**
 * Request of {@link CaseHandler.completeTask} and {@link CaseHandler.rejectTask}.
 *
 * @example
 * ResolveTaskRequestSchema.parse({ task_id: "act_0123456789abcdef", note: "Niet terecht: betaling niet ontvangen." });
 */
export const ResolveTaskRequestSchema = z
  .object({
    task_id: TaskId,
    case_number: CaseNumber.optional().describe(
      "The case the task must be on; a task of another case is refused with task_not_found.",
    ),
    note: z.string().max(1000).optional().describe("The handler's note (the reason when rejecting)."),
  })
  .strict()
  .meta({ id: "ResolveTaskRequest", description: "A task to mark done or reject." });
