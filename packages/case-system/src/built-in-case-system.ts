import { randomBytes } from "node:crypto";
import type { CaseState, CaseSystem } from "@incasso/core";
import { type Executor, repositories, type SqlStore } from "@incasso/store-sql";
import { computeCaseBalance } from "./case-balance.js";
import type { CaseChange, CaseChangeListener } from "./case-change.js";
import { type CaseStatus, isCaseStatus, isOpenStatus } from "./case-statuses.js";
import { CaseSystemError } from "./errors.js";
import { type CaseDetails, selectCaseDetails } from "./internal/case-details.js";
import * as q from "./internal/case-queries.js";

/**
 * Options of {@link createBuiltInCaseSystem}.
 *
 * @example
 * const options: BuiltInCaseSystemOptions = { store, onChange: async (change, tx) => { ... } };
 */
export interface BuiltInCaseSystemOptions {
  /** The store whose database holds the case tables (migration 11 of @incasso/store-sql). */
  store: Pick<SqlStore, "database">;
  /**
   * Called for every change inside the change's own transaction, with the executor and the store's
   * repositories of that transaction: the place to write webhook outbox rows atomically.
   */
  onChange?: CaseChangeListener;
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
  /** The whole case, or undefined; with `organisationId`, only that organisation's case. */
  getCase(query: { caseNumber: string; organisationId?: string }): Promise<CaseDetails | undefined>;
  /**
   * Moves a case to a status. Entering `In behandeling` the first time starts the treatment (from
   * then on the balance includes costs and interest); `Gesloten` closes the case.
   */
  setStatus(input: { caseNumber: string; status: CaseStatus; at?: Date }): Promise<void>;
  /** Books a payment on the case (for a reported payment: with the task it answers). */
  bookPayment(input: {
    caseNumber: string;
    amountCents: number;
    paymentDate: string;
    taskId?: string;
    at?: Date;
  }): Promise<{ paymentId: string }>;
  /** Marks a task done. */
  completeTask(input: { caseNumber: string; taskId: string; at?: Date }): Promise<void>;
  /** Adds a handler's note. */
  addNote(input: { caseNumber: string; text: string; at?: Date }): Promise<{ noteId: string }>;
  /** The bytes of a stored attachment. */
  readAttachment(input: {
    caseNumber: string;
    orderId: string;
    position: number;
  }): Promise<{ filename: string; documentType: string | null; bytes: Uint8Array } | undefined>;
}

const YEAR = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam", year: "numeric" });
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function notFound(caseNumber: string): CaseSystemError {
  return new CaseSystemError("case_not_found", `No case ${caseNumber}.`);
}

function notOnCase(orderId: string, caseNumber: string): CaseSystemError {
  return new CaseSystemError("order_not_on_case", `Order ${orderId} is not on case ${caseNumber}.`);
}

/**
 * Creates the built-in case system on the store's database (decisions case-system-*.md): case
 * numbers `YYYY-NNNNNN`, statuses Nieuw, In behandeling, Aangehouden, Gesloten, debtors with
 * addresses, invoices, attachments kept as bytes in the database, notes, tasks and payments, and
 * the balance with collection costs and interest through @incasso/wik once the case is in
 * treatment. Every write of the port is idempotent on the order id.
 *
 * @example
 * import { openStore } from "@incasso/store-sql";
 * const store = await openStore();
 * const cases = createBuiltInCaseSystem({ store });
 * const engine = createOrderEngine({ store, caseSystem: cases }); // @incasso/core
 */
export function createBuiltInCaseSystem(options: BuiltInCaseSystemOptions): BuiltInCaseSystem {
  const db = options.store.database;
  const listener = options.onChange;
  const clock = options.now ?? (() => new Date());

  // A write and the changes it made. Without a listener a single statement needs no transaction
  // (it is atomic by itself); with one, the listener's writes must commit with the change.
  async function write<T>(
    multiStatement: boolean,
    fn: (tx: Executor) => Promise<{ result: T; changes: CaseChange[] }>,
  ): Promise<T> {
    if (listener === undefined) {
      return multiStatement ? db.transaction(async (tx) => (await fn(tx)).result) : (await fn(db)).result;
    }
    return db.transaction(async (tx) => {
      const { result, changes } = await fn(tx);
      for (const change of changes) await listener(change, { db: tx, repositories: repositories(tx) });
      return result;
    });
  }

  const change = (owner: q.Owner, at: Date) => ({
    caseNumber: owner.caseNumber,
    organisationId: owner.organisationId,
    orderId: owner.orderId,
    reference: owner.reference,
    at,
  });

  async function requireOwner(tx: Executor, caseNumber: string): Promise<q.Owner> {
    const owner = await q.caseOwner(tx, caseNumber);
    if (owner === undefined) throw notFound(caseNumber);
    return owner;
  }

  return {
    findOpenCases: (query) =>
      query.customerNumbers.length === 0 ? Promise.resolve([]) : q.findOpenCases(db, query),

    openCase: (input) =>
      write(false, async (tx) => {
        const year = Number(YEAR.format(input.at));
        const { caseNumber, opened } = await q.openCase(tx, input, year);
        const owner = {
          caseNumber,
          organisationId: input.organisationId,
          orderId: input.orderId,
          reference: input.reference,
        };
        return {
          result: { caseNumber },
          changes: opened ? [{ ...change(owner, input.at), kind: "case_opened" }] : [],
        };
      }),

    joinCase: (input) =>
      write(false, async (tx) => {
        const joined = await q.joinCase(tx, input);
        if (joined === undefined) {
          throw new CaseSystemError(
            "case_not_found",
            `No open case ${input.caseNumber} for this organisation.`,
          );
        }
        const owner = {
          caseNumber: input.caseNumber,
          organisationId: input.organisationId,
          orderId: input.orderId,
          reference: input.reference,
        };
        return {
          result: { caseNumber: input.caseNumber },
          changes: joined.added ? [{ ...change(owner, input.at), kind: "order_added" }] : [],
        };
      }),

    setDebtorAddress: (input) =>
      write(false, async (tx) => {
        const at = clock();
        const owner = await q.setDebtorAddress(tx, { ...input, at });
        if (owner === undefined) throw notOnCase(input.orderId, input.caseNumber);
        return {
          result: undefined,
          changes: [{ ...change(owner, at), kind: "debtor_address_set", debtorIndex: input.debtorIndex }],
        };
      }),

    addInvoice: (input) =>
      write(false, async (tx) => {
        const at = clock();
        const owner = await q.addInvoice(tx, { ...input, at });
        if (owner === undefined) throw notOnCase(input.orderId, input.caseNumber);
        return {
          result: undefined,
          changes:
            owner === "exists"
              ? []
              : [
                  {
                    ...change(owner, at),
                    kind: "invoice_added",
                    invoiceNumber: input.invoice.invoice_number,
                  },
                ],
        };
      }),

    storeAttachment: (input) =>
      write(false, async (tx) => {
        const at = clock();
        const owner = await q.storeAttachment(tx, { ...input, at });
        if (owner === undefined) throw notOnCase(input.orderId, input.caseNumber);
        return {
          result: undefined,
          changes:
            owner === "exists"
              ? []
              : [{ ...change(owner, at), kind: "attachment_stored", filename: input.filename }],
        };
      }),

    addTask: (input) =>
      write(false, async (tx) => {
        const owner = await q.addTask(tx, input);
        if (owner === undefined) throw notOnCase(input.orderId, input.caseNumber);
        return {
          result: undefined,
          changes:
            owner === "exists"
              ? []
              : [
                  {
                    ...change(owner, input.at),
                    kind: "task_added",
                    taskId: input.taskId,
                    action: input.action,
                  },
                ],
        };
      }),

    async caseState(query): Promise<CaseState | undefined> {
      const row = await q.selectCaseState(db, query);
      if (row === undefined) return undefined;
      const state: CaseState = { caseNumber: row.case_number, status: row.status, open: row.open };
      // Spec OrderStatus.case.balance_due_cents: only once the case is in treatment.
      if (row.in_treatment) {
        const invoices = typeof row.invoices === "string" ? JSON.parse(row.invoices) : row.invoices;
        state.balanceDueCents = computeCaseBalance({
          invoices: (invoices as { amount_cents: number | string; due_date: string }[]).map((i) => ({
            amountCents: Number(i.amount_cents),
            dueDate: i.due_date,
          })),
          paidCents: Number(row.paid_cents),
          consumer: row.consumer,
          today: query.today,
        }).balanceDueCents;
      }
      return state;
    },

    getCase: (query) => selectCaseDetails(db, query),

    setStatus: (input) => {
      if (!isCaseStatus(input.status)) {
        return Promise.reject(
          new CaseSystemError("invalid_status", `Unknown case status ${String(input.status)}.`),
        );
      }
      const at = input.at ?? clock();
      return write(true, async (tx) => {
        const { rows } = await tx.query<{ status: CaseStatus }>(
          "SELECT status FROM cases WHERE case_number = $1 FOR UPDATE",
          [input.caseNumber],
        );
        const from = rows[0]?.status;
        if (from === undefined) throw notFound(input.caseNumber);
        if (from === input.status) return { result: undefined, changes: [] };
        await tx.query(
          `UPDATE cases SET status = $2, open = $3, updated_at = $4,
             treatment_started_at = CASE WHEN $2 = 'In behandeling' THEN COALESCE(treatment_started_at, $4) ELSE treatment_started_at END,
             closed_at = CASE WHEN $3 THEN NULL ELSE $4 END
           WHERE case_number = $1`,
          [input.caseNumber, input.status, isOpenStatus(input.status), at.toISOString()],
        );
        const owner = await requireOwner(tx, input.caseNumber);
        return {
          result: undefined,
          changes: [{ ...change(owner, at), kind: "status_changed", from, to: input.status }],
        };
      });
    },

    bookPayment: (input) => {
      if (
        !Number.isSafeInteger(input.amountCents) ||
        input.amountCents < 1 ||
        !ISO_DATE.test(input.paymentDate)
      ) {
        return Promise.reject(
          new CaseSystemError(
            "invalid_payment",
            "A payment needs amountCents >= 1 and a YYYY-MM-DD paymentDate.",
          ),
        );
      }
      const at = input.at ?? clock();
      const paymentId = `pay_${randomBytes(8).toString("hex")}`;
      return write(true, async (tx) => {
        const owner = await requireOwner(tx, input.caseNumber);
        await tx.query(
          `INSERT INTO case_payments (id, case_number, amount_cents, payment_date, task_id, booked_at)
           VALUES ($1, $2, $3, $4::date, $5, $6)`,
          [
            paymentId,
            input.caseNumber,
            input.amountCents,
            input.paymentDate,
            input.taskId ?? null,
            at.toISOString(),
          ],
        );
        return {
          result: { paymentId },
          changes: [
            {
              ...change(owner, at),
              kind: "payment_booked",
              paymentId,
              amountCents: input.amountCents,
              paymentDate: input.paymentDate,
            },
          ],
        };
      });
    },

    completeTask: (input) => {
      const at = input.at ?? clock();
      return write(true, async (tx) => {
        const { rowCount } = await tx.query(
          "UPDATE case_tasks SET status = 'done', completed_at = $3 WHERE id = $1 AND case_number = $2 AND status = 'open'",
          [input.taskId, input.caseNumber, at.toISOString()],
        );
        if (rowCount === 0) {
          const { rows } = await tx.query("SELECT 1 FROM case_tasks WHERE id = $1 AND case_number = $2", [
            input.taskId,
            input.caseNumber,
          ]);
          if (rows.length === 0)
            throw new CaseSystemError(
              "task_not_found",
              `No task ${input.taskId} on case ${input.caseNumber}.`,
            );
          return { result: undefined, changes: [] };
        }
        const owner = await requireOwner(tx, input.caseNumber);
        return {
          result: undefined,
          changes: [{ ...change(owner, at), kind: "task_completed", taskId: input.taskId }],
        };
      });
    },

    addNote: (input) => {
      const at = input.at ?? clock();
      return write(true, async (tx) => {
        const owner = await requireOwner(tx, input.caseNumber);
        const { rows } = await tx.query<{ id: string | number }>(
          "INSERT INTO case_notes (case_number, order_id, kind, text, created_at) VALUES ($1, NULL, 'handler', $2, $3) RETURNING id",
          [input.caseNumber, input.text, at.toISOString()],
        );
        const noteId = String(rows[0]?.id);
        return { result: { noteId }, changes: [{ ...change(owner, at), kind: "note_added", noteId }] };
      });
    },

    async readAttachment(input) {
      const { rows } = await db.query<{
        filename: string;
        document_type: string | null;
        content: Uint8Array;
      }>(
        "SELECT filename, document_type, content FROM case_attachments WHERE case_number = $1 AND order_id = $2 AND position = $3",
        [input.caseNumber, input.orderId, input.position],
      );
      const row = rows[0];
      return row === undefined
        ? undefined
        : { filename: row.filename, documentType: row.document_type, bytes: new Uint8Array(row.content) };
    },
  };
}
