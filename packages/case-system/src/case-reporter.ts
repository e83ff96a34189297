import type { OutboxEventInput } from "@incasso/core";
import { repositories, type SqlStore } from "@incasso/store-sql";
import { CaseSystemError } from "./errors.js";
import { CASE_EVENT_NAMES } from "./webhook-events.js";

/**
 * What a host's case system reports about a case, and the webhook event each sends (spec Events;
 * the same mapping as the built-in case system's changes, decision case-system-webhook-events).
 *
 * | kind | event |
 * |---|---|
 * | `payment_booked` | `payment.received` |
 * | `correspondence_sent` | `correspondence.sent` |
 * | `invoice_changed` | `invoice.updated` |
 * | `case_updated` | `case.updated` |
 * | `case_closed` | `case.closed` |
 *
 * @example
 * const kind: CaseEventKind = "payment_booked";
 */
export type CaseEventKind =
  | "payment_booked"
  | "correspondence_sent"
  | "invoice_changed"
  | "case_updated"
  | "case_closed";

const EVENT_TYPES: Record<CaseEventKind, OutboxEventInput["type"]> = {
  payment_booked: "payment.received",
  correspondence_sent: "correspondence.sent",
  invoice_changed: "invoice.updated",
  case_updated: "case.updated",
  case_closed: "case.closed",
};

/**
 * Reports what a host's case system did back to the API's store: a control request's outcome and
 * case events, each written with its webhook event in one transaction through the transactional
 * outbox the built-in case system uses (architecture: Webhooks), so the event exists exactly when
 * the report was committed. The event's body and signature are the spec's: the webhook
 * dispatcher sends it like the built-in's.
 *
 * @example
 * const reporter = createCaseReporter({ store });
 * await reporter.taskOutcome({ organisationId, taskId: "act_0123456789abcdef", outcome: "done", note: "Gepauzeerd." });
 * await reporter.caseEvent({ organisationId, orderId, kind: "payment_booked", caseEvent: "betaling" });
 */
export interface CaseReporter {
  /**
   * The outcome of a control request's task (hold, withdraw or payment report; `taskId` is the
   * control request's id, the `taskId` the port's `addTask` received): `done` or `rejected`, with
   * the handler's note. Sends `case.updated` (`data.case_event` `case_tasks` unless given), as
   * the built-in's task answers do. A repeat of the same outcome changes and sends nothing
   * (`changed` false); another outcome of a resolved request is refused with `task_not_open`.
   */
  taskOutcome(input: {
    organisationId: string;
    taskId: string;
    outcome: "done" | "rejected";
    note?: string | null;
    caseEvent?: string;
  }): Promise<{ changed: boolean }>;
  /**
   * A case event of an order's case: sends its webhook event with `data.order_id`, the order's
   * case number and reference, and `data.case_event` (the host's own name for the change, spec
   * Events: "underlying case-system event name"; default the built-in's name for the kind).
   */
  caseEvent(input: {
    organisationId: string;
    orderId: string;
    kind: CaseEventKind;
    caseEvent?: string;
  }): Promise<{ eventId: string }>;
}

const DEFAULT_CASE_EVENTS: Record<CaseEventKind, string> = {
  payment_booked: CASE_EVENT_NAMES.payment,
  correspondence_sent: CASE_EVENT_NAMES.letter,
  invoice_changed: CASE_EVENT_NAMES.invoice,
  case_updated: CASE_EVENT_NAMES.status,
  case_closed: CASE_EVENT_NAMES.status,
};

/**
 * Creates a {@link CaseReporter} on the store's database (the `orders`, `order_actions` and outbox
 * tables of @incasso/store-sql; no case tables needed).
 *
 * @example
 * const reporter = createCaseReporter({ store: await openCaseSystemStore({ databaseUrl }) });
 */
export function createCaseReporter(options: { store: Pick<SqlStore, "database"> }): CaseReporter {
  const db = options.store.database;

  return {
    taskOutcome: (input) =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{
          status: string;
          order_id: string;
          case_number: string | null;
          reference: string | null;
        }>(
          `SELECT a.status, a.order_id, o.case_number, o.reference
             FROM order_actions a JOIN orders o ON o.id = a.order_id
            WHERE a.id = $1 AND a.organisation_id = $2 FOR UPDATE OF a`,
          [input.taskId, input.organisationId],
        );
        const action = rows[0];
        if (action === undefined || action.case_number === null) {
          throw new CaseSystemError("task_not_found", `No control request ${input.taskId}.`);
        }
        if (action.status === input.outcome) return { changed: false };
        if (action.status === "done" || action.status === "rejected") {
          throw new CaseSystemError(
            "task_not_open",
            `Control request ${input.taskId} is ${action.status} already.`,
          );
        }
        await tx.query("UPDATE order_actions SET status = $2, outcome_note = $3 WHERE id = $1", [
          input.taskId,
          input.outcome,
          input.note ?? null,
        ]);
        await repositories(tx).outbox.enqueue({
          organisationId: input.organisationId,
          type: "case.updated",
          data: {
            order_id: action.order_id,
            case_number: action.case_number,
            reference: action.reference,
            case_event: input.caseEvent ?? CASE_EVENT_NAMES.task,
          },
        });
        return { changed: true };
      }),

    caseEvent: (input) =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{ case_number: string | null; reference: string | null }>(
          "SELECT case_number, reference FROM orders WHERE id = $1 AND organisation_id = $2",
          [input.orderId, input.organisationId],
        );
        const order = rows[0];
        if (order === undefined || order.case_number === null) {
          throw new CaseSystemError("order_not_on_case", `Order ${input.orderId} is on no case.`);
        }
        const event = await repositories(tx).outbox.enqueue({
          organisationId: input.organisationId,
          type: EVENT_TYPES[input.kind],
          data: {
            order_id: input.orderId,
            case_number: order.case_number,
            reference: order.reference,
            case_event: input.caseEvent ?? DEFAULT_CASE_EVENTS[input.kind],
          },
        });
        return { eventId: event.id };
      }),
  };
}
