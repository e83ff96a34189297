import type { Executor } from "@incasso/store-sql";
import type { CaseStatus } from "../case-statuses.js";
import { type LetterRow, listLetters } from "./handler-queries.js";
import { type MergedDebtor, mergeDebtors } from "./merge-debtors.js";

/**
 * Everything the built-in case system holds about one case, for a handler's screen, the CLI or a
 * test. Attachments are listed without their bytes (see `readAttachment`).
 */
export interface CaseDetails {
  caseNumber: string;
  organisationId: string;
  creditor: { id: string | null; name: string };
  openedByOrderId: string;
  type: "pre-incasso" | "incasso";
  reference: string | null;
  title: string;
  description: string | null;
  udfFields: Record<string, unknown>;
  status: CaseStatus;
  open: boolean;
  treatmentStartedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  orders: { orderId: string; type: string; reference: string | null; title: string; addedAt: Date }[];
  /** Each debtor once, however many orders named it (internal/merge-debtors.ts; issue 31). */
  debtors: MergedDebtor[];
  invoices: {
    orderId: string;
    position: number;
    invoiceNumber: string;
    invoiceDate: string;
    dueDate: string;
    amountCents: number;
    description: string | null;
  }[];
  attachments: {
    orderId: string;
    position: number;
    filename: string;
    documentType: string | null;
    sizeBytes: number;
  }[];
  notes: { id: string; orderId: string | null; kind: string; text: string; createdAt: Date }[];
  tasks: {
    id: string;
    orderId: string | null;
    kind: string;
    instructions: string;
    reason: string | null;
    amountCents: number | null;
    paymentDate: string | null;
    status: "open" | "done" | "rejected";
    /** The handler's note when rejecting (or completing) it. */
    resolution: string | null;
    createdAt: Date;
    /** When it was done or rejected. */
    completedAt: Date | null;
  }[];
  payments: { id: string; amountCents: number; paymentDate: string; taskId: string | null; bookedAt: Date }[];
  /** Letters made and recorded as sent (the 14-day letter), oldest first, without their bytes. */
  letters: LetterRow[];
}

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const maybeDate = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
type Row = Record<string, unknown>;

export async function selectCaseDetails(
  db: Executor,
  query: { caseNumber: string; organisationId?: string },
): Promise<CaseDetails | undefined> {
  const { rows } = await db.query<Row>(
    "SELECT * FROM cases WHERE case_number = $1 AND ($2::text IS NULL OR organisation_id = $2)",
    [query.caseNumber, query.organisationId ?? null],
  );
  const c = rows[0];
  if (c === undefined) return undefined;
  const n = [query.caseNumber];
  const [orders, debtors, invoices, attachments, notes, tasks, payments, letters] = await Promise.all([
    db.query<Row>("SELECT * FROM case_orders WHERE case_number = $1 ORDER BY added_at, order_id", n),
    // In the order their orders came onto the case, so a later address is the newer one.
    db.query<Row>(
      `SELECT d.* FROM case_debtors d LEFT JOIN case_orders o ON o.order_id = d.order_id
        WHERE d.case_number = $1 ORDER BY o.added_at, d.order_id, d.position`,
      n,
    ),
    db.query<Row>(
      `SELECT order_id, position, invoice_number, invoice_date::text AS invoice_date, due_date::text AS due_date,
         amount_cents, description, added_at FROM case_invoices WHERE case_number = $1 ORDER BY added_at, order_id, position`,
      n,
    ),
    db.query<Row>(
      "SELECT order_id, position, filename, document_type, size_bytes FROM case_attachments WHERE case_number = $1 ORDER BY stored_at, order_id, position",
      n,
    ),
    db.query<Row>("SELECT * FROM case_notes WHERE case_number = $1 ORDER BY id", n),
    db.query<Row>(
      `SELECT id, order_id, kind, instructions, reason, amount_cents, payment_date::text AS payment_date, status,
         resolution, created_at, completed_at FROM case_tasks WHERE case_number = $1 ORDER BY created_at, id`,
      n,
    ),
    db.query<Row>(
      "SELECT id, amount_cents, payment_date::text AS payment_date, task_id, booked_at FROM case_payments WHERE case_number = $1 ORDER BY booked_at, id",
      n,
    ),
    listLetters(db, query.caseNumber),
  ]);
  return {
    caseNumber: String(c.case_number),
    organisationId: String(c.organisation_id),
    creditor: { id: (c.creditor_id as string | null) ?? null, name: String(c.creditor_name) },
    openedByOrderId: String(c.opened_by_order_id),
    type: c.type as CaseDetails["type"],
    reference: (c.reference as string | null) ?? null,
    title: String(c.title),
    description: (c.description as string | null) ?? null,
    udfFields: (typeof c.udf_fields === "string" ? JSON.parse(c.udf_fields) : c.udf_fields) as Record<
      string,
      unknown
    >,
    status: c.status as CaseStatus,
    open: Boolean(c.open),
    treatmentStartedAt: maybeDate(c.treatment_started_at),
    closedAt: maybeDate(c.closed_at),
    createdAt: date(c.created_at),
    orders: orders.rows.map((r) => ({
      orderId: String(r.order_id),
      type: String(r.type),
      reference: (r.reference as string | null) ?? null,
      title: String(r.title),
      addedAt: date(r.added_at),
    })),
    debtors: mergeDebtors(
      debtors.rows.map((r) => ({
        orderId: String(r.order_id),
        position: Number(r.position),
        type: r.type as "business" | "individual",
        name: String(r.name),
        customerNumber: (r.customer_number as string | null) ?? null,
        email: (r.email as string | null) ?? null,
        phone: (r.phone as string | null) ?? null,
        address:
          r.address_set_at === null
            ? null
            : {
                street: String(r.street),
                house_number: String(r.house_number),
                house_number_suffix: (r.house_number_suffix as string | null) ?? null,
                postal_code: String(r.postal_code),
                city: String(r.city),
                country: String(r.country),
              },
        addressSetAt: maybeDate(r.address_set_at),
      })),
    ),
    invoices: invoices.rows.map((r) => ({
      orderId: String(r.order_id),
      position: Number(r.position),
      invoiceNumber: String(r.invoice_number),
      invoiceDate: String(r.invoice_date),
      dueDate: String(r.due_date),
      amountCents: Number(r.amount_cents),
      description: (r.description as string | null) ?? null,
    })),
    attachments: attachments.rows.map((r) => ({
      orderId: String(r.order_id),
      position: Number(r.position),
      filename: String(r.filename),
      documentType: (r.document_type as string | null) ?? null,
      sizeBytes: Number(r.size_bytes),
    })),
    notes: notes.rows.map((r) => ({
      id: String(r.id),
      orderId: (r.order_id as string | null) ?? null,
      kind: String(r.kind),
      text: String(r.text),
      createdAt: date(r.created_at),
    })),
    tasks: tasks.rows.map((r) => ({
      id: String(r.id),
      orderId: (r.order_id as string | null) ?? null,
      kind: String(r.kind),
      instructions: String(r.instructions),
      reason: (r.reason as string | null) ?? null,
      amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
      paymentDate: (r.payment_date as string | null) ?? null,
      status: r.status as "open" | "done" | "rejected",
      resolution: (r.resolution as string | null) ?? null,
      createdAt: date(r.created_at),
      completedAt: maybeDate(r.completed_at),
    })),
    payments: payments.rows.map((r) => ({
      id: String(r.id),
      amountCents: Number(r.amount_cents),
      paymentDate: String(r.payment_date),
      taskId: (r.task_id as string | null) ?? null,
      bookedAt: date(r.booked_at),
    })),
    letters,
  };
}
