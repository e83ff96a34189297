import type {
  CaseOrderInput,
  CaseTaskInput,
  NormalisedAddress,
  NormalisedInvoice,
  OpenCase,
} from "@incasso/core";
import type { Executor } from "@incasso/store-sql";
import type { CaseStatus } from "../case-statuses.js";
import { letterJobInsert } from "./letter-job-queries.js";

// The SQL of the built-in case system. Every function takes the executor it runs on (the database
// or one transaction), so a caller can put several of them, and an outbox row, in one transaction
// (architecture: "Repository functions take the transaction executor explicitly").

/** Who an item belongs to, for the change handed to a listener. */
export interface Owner {
  caseNumber: string;
  organisationId: string;
  orderId: string;
  reference: string | null;
  /** True when the order joined a case another order opened. */
  merged?: boolean;
}

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

export async function findOpenCases(
  db: Executor,
  query: { organisationId: string; creditorId: string | null; customerNumbers: string[] },
): Promise<OpenCase[]> {
  const { rows } = await db.query<{
    case_number: string;
    created_at: Date | string;
    opened_by_order_id: string;
  }>(
    `SELECT DISTINCT c.case_number, c.created_at, c.opened_by_order_id
       FROM case_debtors d JOIN cases c ON c.case_number = d.case_number
      WHERE d.organisation_id = $1 AND d.customer_number = ANY($2::text[])
        AND c.open AND c.creditor_id IS NOT DISTINCT FROM $3
      ORDER BY c.created_at, c.case_number`,
    [query.organisationId, query.customerNumbers, query.creditorId],
  );
  return rows.map((r) => ({
    caseNumber: r.case_number,
    openedAt: toDate(r.created_at),
    openedByOrderId: r.opened_by_order_id,
  }));
}

const DEBTOR_RECORD = `json_to_recordset($DEBTORS::json) AS x(position int, type text, name text,
  company_name text, first_name text, middle_name text, last_name text, customer_number text, email text, phone text)`;

function debtorsJson(input: CaseOrderInput): string {
  return JSON.stringify(input.debtors.map((d, position) => ({ position, ...d })));
}

/**
 * Opens a case with the order, its debtors, its note and (pre-incasso) its letter job in one
 * statement. Returns the case number and whether this call opened it (false: the order had opened
 * it before).
 */
export async function openCase(
  db: Executor,
  input: CaseOrderInput,
  year: number,
): Promise<{ caseNumber: string; opened: boolean }> {
  const params = [
    input.orderId,
    input.organisationId,
    input.creditor.id,
    input.creditor.name,
    input.type,
    input.reference,
    input.title,
    input.description,
    JSON.stringify(input.udfFields),
    input.at.toISOString(),
    String(year),
    debtorsJson(input),
    input.note,
  ];
  // Case number: year, hyphen, running number padded to six digits and never cut (lpad would cut).
  const { rows } = await db.query<{ case_number: string }>(
    `WITH n AS (SELECT nextval('case_number_seq') AS v),
     c AS (
       INSERT INTO cases (case_number, organisation_id, creditor_id, creditor_name, opened_by_order_id, type,
         reference, title, description, udf_fields, status, open, created_at, updated_at)
       SELECT $11 || '-' || CASE WHEN n.v < 1000000 THEN lpad(n.v::text, 6, '0') ELSE n.v::text END,
         $2, $3, $4, $1, $5, $6, $7, $8, $9::jsonb, 'Nieuw', true, $10, $10
       FROM n
       ON CONFLICT (opened_by_order_id) DO NOTHING
       RETURNING case_number),
     o AS (
       INSERT INTO case_orders (order_id, case_number, type, reference, title, description, added_at)
       SELECT $1, c.case_number, $5, $6, $7, $8, $10 FROM c RETURNING order_id),
     d AS (
       INSERT INTO case_debtors (order_id, position, case_number, organisation_id, type, name, company_name,
         first_name, middle_name, last_name, customer_number, email, phone)
       SELECT $1, x.position, c.case_number, $2, x.type, x.name, x.company_name, x.first_name, x.middle_name,
         x.last_name, x.customer_number, x.email, x.phone
       FROM c, ${DEBTOR_RECORD.replace("$DEBTORS", "$12")} RETURNING order_id),
     t AS (
       INSERT INTO case_notes (case_number, order_id, kind, text, created_at)
       SELECT c.case_number, $1, 'metadata', $13::text, $10 FROM c WHERE $13::text IS NOT NULL RETURNING id),
     j AS (${letterJobInsert("c", "$1", "$5", "$10")})
     SELECT case_number FROM c`,
    params,
  );
  const opened = rows[0]?.case_number;
  if (opened !== undefined) return { caseNumber: opened, opened: true };
  const existing = await db.query<{ case_number: string }>(
    "SELECT case_number FROM cases WHERE opened_by_order_id = $1 AND organisation_id = $2",
    [input.orderId, input.organisationId],
  );
  const row = existing.rows[0];
  if (row === undefined) throw new Error(`Order ${input.orderId} opened a case of another organisation.`);
  return { caseNumber: row.case_number, opened: false };
}

/**
 * Adds the order, its debtors, its note and (pre-incasso) its letter job to an open case of the
 * organisation, and merges its custom fields into the case's. Returns whether this call added it
 * (false: it was added before); undefined when the case is neither open for the organisation nor
 * already holding the order.
 */
export async function joinCase(
  db: Executor,
  input: CaseOrderInput & { caseNumber: string },
): Promise<{ added: boolean } | undefined> {
  const { rows } = await db.query<{ added: string | null; existing: string | null }>(
    `WITH c AS (
       SELECT case_number FROM cases WHERE case_number = $2 AND organisation_id = $3 AND open),
     o AS (
       INSERT INTO case_orders (order_id, case_number, type, reference, title, description, added_at)
       SELECT $1, c.case_number, $4, $5, $6, $7, $8 FROM c
       ON CONFLICT (order_id) DO NOTHING RETURNING case_number),
     d AS (
       INSERT INTO case_debtors (order_id, position, case_number, organisation_id, type, name, company_name,
         first_name, middle_name, last_name, customer_number, email, phone)
       SELECT $1, x.position, o.case_number, $3, x.type, x.name, x.company_name, x.first_name, x.middle_name,
         x.last_name, x.customer_number, x.email, x.phone
       FROM o, ${DEBTOR_RECORD.replace("$DEBTORS", "$9")} RETURNING order_id),
     t AS (
       INSERT INTO case_notes (case_number, order_id, kind, text, created_at)
       SELECT o.case_number, $1, 'metadata', $10::text, $8 FROM o WHERE $10::text IS NOT NULL RETURNING id),
     u AS (
       UPDATE cases SET udf_fields = cases.udf_fields || $11::jsonb, updated_at = $8
       FROM o WHERE cases.case_number = o.case_number RETURNING cases.case_number),
     j AS (${letterJobInsert("o", "$1", "$4", "$8")})
     SELECT (SELECT case_number FROM o) AS added,
            (SELECT case_number FROM case_orders WHERE order_id = $1 AND case_number = $2) AS existing`,
    [
      input.orderId,
      input.caseNumber,
      input.organisationId,
      input.type,
      input.reference,
      input.title,
      input.description,
      input.at.toISOString(),
      debtorsJson(input),
      input.note,
      JSON.stringify(input.udfFields),
    ],
  );
  const row = rows[0];
  if (row?.added) return { added: true };
  if (row?.existing) return { added: false };
  return undefined;
}

// Items of an order are inserted only when the order is on that case (the SELECT from case_orders),
// and at most once (the primary key on order id and position).
const OWNER_OF = `SELECT co.case_number, c.organisation_id, co.order_id, co.reference,
    c.opened_by_order_id <> co.order_id AS merged
  FROM case_orders co JOIN cases c ON c.case_number = co.case_number`;

function owner(row: OwnerRow): Owner {
  return {
    caseNumber: row.case_number,
    organisationId: row.organisation_id,
    orderId: row.order_id,
    reference: row.reference,
    ...(row.merged === undefined ? {} : { merged: Boolean(row.merged) }),
  };
}

type OwnerRow = {
  case_number: string;
  organisation_id: string;
  order_id: string;
  reference: string | null;
  merged?: boolean;
};

/** The order a case item belongs to, when it is on the case; undefined otherwise. */
export async function orderOwner(
  db: Executor,
  caseNumber: string,
  orderId: string,
): Promise<Owner | undefined> {
  const { rows } = await db.query<OwnerRow>(`${OWNER_OF} WHERE co.case_number = $1 AND co.order_id = $2`, [
    caseNumber,
    orderId,
  ]);
  return rows[0] ? owner(rows[0]) : undefined;
}

export async function setDebtorAddress(
  db: Executor,
  input: { orderId: string; caseNumber: string; debtorIndex: number; address: NormalisedAddress; at: Date },
): Promise<Owner | undefined> {
  const a = input.address;
  const { rows } = await db.query<OwnerRow>(
    `WITH u AS (
       UPDATE case_debtors SET street = $4, house_number = $5, house_number_suffix = $6, postal_code = $7,
         city = $8, country = $9, address_set_at = $10
       WHERE order_id = $1 AND position = $3 AND case_number = $2 RETURNING order_id)
     ${OWNER_OF} JOIN u ON u.order_id = co.order_id`,
    [
      input.orderId,
      input.caseNumber,
      input.debtorIndex,
      a.street,
      a.house_number,
      a.house_number_suffix,
      a.postal_code,
      a.city,
      a.country,
      input.at.toISOString(),
    ],
  );
  return rows[0] ? owner(rows[0]) : undefined;
}

/** Returns the owner when this call inserted the row, `"exists"` when it was there, undefined when the order is not on the case. */
async function insertItem(
  db: Executor,
  table: "case_invoices" | "case_attachments",
  orderId: string,
  caseNumber: string,
  position: number,
  insert: string,
  params: unknown[],
): Promise<Owner | "exists" | undefined> {
  const { rows } = await db.query<OwnerRow>(
    `WITH i AS (${insert} ON CONFLICT (order_id, position) DO NOTHING RETURNING order_id)
     ${OWNER_OF} JOIN i ON i.order_id = co.order_id`,
    params,
  );
  if (rows[0]) return owner(rows[0]);
  const { rows: found } = await db.query(
    `SELECT 1 FROM ${table} WHERE order_id = $1 AND position = $2 AND case_number = $3`,
    [orderId, position, caseNumber],
  );
  return found.length > 0 ? "exists" : undefined;
}

export function addInvoice(
  db: Executor,
  input: { orderId: string; caseNumber: string; invoiceIndex: number; invoice: NormalisedInvoice; at: Date },
): Promise<Owner | "exists" | undefined> {
  const i = input.invoice;
  return insertItem(
    db,
    "case_invoices",
    input.orderId,
    input.caseNumber,
    input.invoiceIndex,
    `INSERT INTO case_invoices (order_id, position, case_number, invoice_number, invoice_date, due_date,
       amount_cents, description, added_at)
     SELECT $1, $3, co.case_number, $4, $5::date, $6::date, $7, $8, $9
     FROM case_orders co WHERE co.order_id = $1 AND co.case_number = $2`,
    [
      input.orderId,
      input.caseNumber,
      input.invoiceIndex,
      i.invoice_number,
      i.invoice_date,
      i.due_date,
      i.amount_cents,
      i.description,
      input.at.toISOString(),
    ],
  );
}

export function storeAttachment(
  db: Executor,
  input: {
    orderId: string;
    caseNumber: string;
    attachmentIndex: number;
    filename: string;
    documentType: string | null;
    bytes: Uint8Array;
    at: Date;
  },
): Promise<Owner | "exists" | undefined> {
  return insertItem(
    db,
    "case_attachments",
    input.orderId,
    input.caseNumber,
    input.attachmentIndex,
    `INSERT INTO case_attachments (order_id, position, case_number, filename, document_type, size_bytes, content, stored_at)
     SELECT $1, $3, co.case_number, $4, $5, $6, $7, $8
     FROM case_orders co WHERE co.order_id = $1 AND co.case_number = $2`,
    [
      input.orderId,
      input.caseNumber,
      input.attachmentIndex,
      input.filename,
      input.documentType,
      input.bytes.byteLength,
      input.bytes,
      input.at.toISOString(),
    ],
  );
}

export async function addTask(db: Executor, input: CaseTaskInput): Promise<Owner | "exists" | undefined> {
  const { rows } = await db.query<OwnerRow>(
    `WITH i AS (
       INSERT INTO case_tasks (id, case_number, order_id, kind, instructions, reason, amount_cents, payment_date,
         status, created_at)
       SELECT $1, c.case_number, $2, $5, $6, $7, $8, $9::date, 'open', $10
       FROM cases c JOIN case_orders co ON co.case_number = c.case_number
       WHERE c.case_number = $3 AND c.organisation_id = $4 AND co.order_id = $2
       ON CONFLICT (id) DO NOTHING RETURNING order_id)
     ${OWNER_OF} JOIN i ON i.order_id = co.order_id`,
    [
      input.taskId,
      input.orderId,
      input.caseNumber,
      input.organisationId,
      input.action,
      input.instructions,
      input.reason,
      input.amountCents,
      input.paymentDate,
      input.at.toISOString(),
    ],
  );
  if (rows[0]) return owner(rows[0]);
  const { rows: found } = await db.query("SELECT 1 FROM case_tasks WHERE id = $1 AND case_number = $2", [
    input.taskId,
    input.caseNumber,
  ]);
  return found.length > 0 ? "exists" : undefined;
}

export interface CaseStateRow {
  case_number: string;
  status: CaseStatus;
  open: boolean;
  in_treatment: boolean;
  consumer: boolean;
  invoices: { amount_cents: number | string; due_date: string }[] | string;
  paid_cents: number | string;
}

export async function selectCaseState(
  db: Executor,
  query: { organisationId?: string; caseNumber: string },
): Promise<CaseStateRow | undefined> {
  const { rows } = await db.query<CaseStateRow>(
    `SELECT c.case_number, c.status, c.open, c.treatment_started_at IS NOT NULL AS in_treatment,
       EXISTS (SELECT 1 FROM case_debtors d WHERE d.case_number = c.case_number AND d.type = 'individual') AS consumer,
       COALESCE((SELECT json_agg(json_build_object('amount_cents', i.amount_cents, 'due_date', i.due_date::text))
                   FROM case_invoices i WHERE i.case_number = c.case_number), '[]'::json) AS invoices,
       COALESCE((SELECT sum(p.amount_cents) FROM case_payments p WHERE p.case_number = c.case_number), 0) AS paid_cents
     FROM cases c WHERE c.case_number = $1 AND ($2::text IS NULL OR c.organisation_id = $2)`,
    [query.caseNumber, query.organisationId ?? null],
  );
  return rows[0];
}

/** The case's opening order and its reference, for a case-level change. */
export async function caseOwner(db: Executor, caseNumber: string): Promise<Owner | undefined> {
  const { rows } = await db.query<OwnerRow>(
    `SELECT c.case_number, c.organisation_id, c.opened_by_order_id AS order_id, c.reference
       FROM cases c WHERE c.case_number = $1`,
    [caseNumber],
  );
  return rows[0] ? owner(rows[0]) : undefined;
}
