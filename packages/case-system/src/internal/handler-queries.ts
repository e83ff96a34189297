import type { Executor } from "@incasso/store-sql";
import type { CaseStatus } from "../case-statuses.js";

// The SQL of the handler's lists and of task and letter rows (migration 30 of @incasso/store-sql).

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const maybeDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

/** One case in the handler's list. */
export interface CaseListItem {
  caseNumber: string;
  organisationId: string;
  organisation: string;
  creditorName: string;
  type: "pre-incasso" | "incasso";
  reference: string | null;
  status: CaseStatus;
  open: boolean;
  debtors: string;
  invoiceCount: number;
  principalCents: number;
  paidCents: number;
  openTasks: number;
  createdAt: Date;
}

export async function listCases(
  db: Executor,
  query: { organisationId?: string; caseNumber?: string; status?: CaseStatus; open?: boolean; limit: number },
): Promise<CaseListItem[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT c.case_number, c.organisation_id, o.name AS organisation, c.creditor_name, c.type, c.reference,
       c.status, c.open, c.created_at,
       (SELECT string_agg(DISTINCT d.name, ', ') FROM case_debtors d WHERE d.case_number = c.case_number) AS debtors,
       (SELECT count(*) FROM case_invoices i WHERE i.case_number = c.case_number) AS invoice_count,
       (SELECT COALESCE(sum(i.amount_cents), 0) FROM case_invoices i WHERE i.case_number = c.case_number) AS principal_cents,
       (SELECT COALESCE(sum(p.amount_cents), 0) FROM case_payments p WHERE p.case_number = c.case_number) AS paid_cents,
       (SELECT count(*) FROM case_tasks t WHERE t.case_number = c.case_number AND t.status = 'open') AS open_tasks
     FROM cases c JOIN organisations o ON o.id = c.organisation_id
     WHERE ($1::text IS NULL OR c.organisation_id = $1) AND ($2::text IS NULL OR c.status = $2)
       AND ($3::boolean IS NULL OR c.open = $3) AND ($5::text IS NULL OR c.case_number = $5)
     ORDER BY c.created_at DESC, c.case_number DESC LIMIT $4`,
    [
      query.organisationId ?? null,
      query.status ?? null,
      query.open ?? null,
      query.limit,
      query.caseNumber ?? null,
    ],
  );
  return rows.map((r) => ({
    caseNumber: String(r.case_number),
    organisationId: String(r.organisation_id),
    organisation: String(r.organisation),
    creditorName: String(r.creditor_name),
    type: r.type as CaseListItem["type"],
    reference: (r.reference as string | null) ?? null,
    status: r.status as CaseStatus,
    open: Boolean(r.open),
    debtors: String(r.debtors ?? ""),
    invoiceCount: Number(r.invoice_count),
    principalCents: Number(r.principal_cents),
    paidCents: Number(r.paid_cents),
    openTasks: Number(r.open_tasks),
    createdAt: toDate(r.created_at),
  }));
}

/** A task with its case and organisation. */
export interface TaskRow {
  id: string;
  caseNumber: string;
  organisationId: string;
  organisation: string;
  orderId: string | null;
  kind: string;
  instructions: string;
  reason: string | null;
  amountCents: number | null;
  paymentDate: string | null;
  status: "open" | "done" | "rejected";
  resolution: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

const TASK_SELECT = `SELECT t.id, t.case_number, c.organisation_id, o.name AS organisation, t.order_id, t.kind,
    t.instructions, t.reason, t.amount_cents, t.payment_date::text AS payment_date, t.status, t.resolution,
    t.created_at, t.completed_at
  FROM case_tasks t JOIN cases c ON c.case_number = t.case_number JOIN organisations o ON o.id = c.organisation_id`;

function taskRow(r: Record<string, unknown>): TaskRow {
  return {
    id: String(r.id),
    caseNumber: String(r.case_number),
    organisationId: String(r.organisation_id),
    organisation: String(r.organisation),
    orderId: (r.order_id as string | null) ?? null,
    kind: String(r.kind),
    instructions: String(r.instructions),
    reason: (r.reason as string | null) ?? null,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    paymentDate: (r.payment_date as string | null) ?? null,
    status: r.status as TaskRow["status"],
    resolution: (r.resolution as string | null) ?? null,
    createdAt: toDate(r.created_at),
    resolvedAt: maybeDate(r.completed_at),
  };
}

export async function listTasks(
  db: Executor,
  query: { status?: TaskRow["status"]; caseNumber?: string; organisationId?: string; limit: number },
): Promise<TaskRow[]> {
  // Oldest first: the order a handler works through them.
  const { rows } = await db.query<Record<string, unknown>>(
    `${TASK_SELECT}
     WHERE ($1::text IS NULL OR t.status = $1) AND ($2::text IS NULL OR t.case_number = $2)
       AND ($3::text IS NULL OR c.organisation_id = $3)
     ORDER BY t.created_at, t.id LIMIT $4`,
    [query.status ?? null, query.caseNumber ?? null, query.organisationId ?? null, query.limit],
  );
  return rows.map(taskRow);
}

export async function findTask(db: Executor, taskId: string, lock = false): Promise<TaskRow | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `${TASK_SELECT} WHERE t.id = $1${lock ? " FOR UPDATE OF t" : ""}`,
    [taskId],
  );
  return rows[0] ? taskRow(rows[0]) : undefined;
}

/**
 * Resolves an open task and moves the order's control request on to the same status, in the
 * caller's transaction. The task id is the action id (`act_…`) the order engine gave both
 * (spec OrderStatus.actions[].status; decision case-system-task-statuses).
 */
export async function resolveTask(
  db: Executor,
  input: { taskId: string; status: "done" | "rejected"; resolution: string | null; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE case_tasks SET status = $2, resolution = $3, completed_at = $4 WHERE id = $1 AND status = 'open'",
    [input.taskId, input.status, input.resolution, input.at.toISOString()],
  );
  if (rowCount === 0) return false;
  await db.query("UPDATE order_actions SET status = $2 WHERE id = $1", [input.taskId, input.status]);
  return true;
}

/** A stored letter without its bytes. */
export interface LetterRow {
  id: string;
  caseNumber: string;
  orderId: string | null;
  kind: "wik_letter";
  filename: string;
  letterDate: string;
  principalCents: number;
  collectionCostsCents: number;
  sizeBytes: number;
  sentAt: Date;
}

const LETTER_COLUMNS = `id, case_number, order_id, kind, filename, letter_date::text AS letter_date, principal_cents,
  collection_costs_cents, size_bytes, sent_at`;

function letterRow(r: Record<string, unknown>): LetterRow {
  return {
    id: String(r.id),
    caseNumber: String(r.case_number),
    orderId: (r.order_id as string | null) ?? null,
    kind: "wik_letter",
    filename: String(r.filename),
    letterDate: String(r.letter_date),
    principalCents: Number(r.principal_cents),
    collectionCostsCents: Number(r.collection_costs_cents),
    sizeBytes: Number(r.size_bytes),
    sentAt: toDate(r.sent_at),
  };
}

export async function listLetters(db: Executor, caseNumber: string): Promise<LetterRow[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${LETTER_COLUMNS} FROM case_letters WHERE case_number = $1 ORDER BY sent_at, id`,
    [caseNumber],
  );
  return rows.map(letterRow);
}

export async function letterOfOrder(db: Executor, orderId: string): Promise<LetterRow | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${LETTER_COLUMNS} FROM case_letters WHERE order_id = $1`,
    [orderId],
  );
  return rows[0] ? letterRow(rows[0]) : undefined;
}

/**
 * Inserts a letter with the newest invoice it listed (`claimsThrough`, what its costs cover:
 * decision case-system-collection-costs); false when the order had its letter already (the unique
 * order id).
 */
export async function insertLetter(
  db: Executor,
  letter: Omit<LetterRow, "sizeBytes"> & { content: Uint8Array; claimsThrough: string | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO case_letters (id, case_number, order_id, kind, filename, letter_date, principal_cents,
       collection_costs_cents, size_bytes, content, sent_at, claims_through)
     VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (order_id) DO NOTHING`,
    [
      letter.id,
      letter.caseNumber,
      letter.orderId,
      letter.kind,
      letter.filename,
      letter.letterDate,
      letter.principalCents,
      letter.collectionCostsCents,
      letter.content.byteLength,
      letter.content,
      letter.sentAt.toISOString(),
      letter.claimsThrough,
    ],
  );
  return rowCount > 0;
}

export async function readLetter(
  db: Executor,
  caseNumber: string,
  letterId: string,
): Promise<(LetterRow & { bytes: Uint8Array }) | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${LETTER_COLUMNS}, content FROM case_letters WHERE case_number = $1 AND id = $2`,
    [caseNumber, letterId],
  );
  const r = rows[0];
  return r ? { ...letterRow(r), bytes: new Uint8Array(r.content as Uint8Array) } : undefined;
}
