import type { CaseTaskInput } from "@incasso/core";
import type { Executor } from "@incasso/store-sql";
import type { CaseStatus } from "../case-statuses.js";
import { byteaParam } from "./bytea-base64.js";

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

/**
 * The most bytes of a file one statement carries to a database without a binary path (PGlite).
 * PGlite runs on the thread that answers every request: a whole 8 MiB file in one INSERT held the
 * event loop for 130–430 ms. Parts of 256 KiB take a few milliseconds each, and other requests
 * are served between them (issue 22, item 5; decision case-system-attachment-parts).
 */
export const ATTACHMENT_PART_BYTES = 256 * 1024;

/**
 * True when storing these bytes on this executor takes more than one statement (and so a
 * transaction): on a driver without binary parameters, a file larger than one part.
 *
 * @example
 * attachmentNeedsParts(pgliteTx, new Uint8Array(300 * 1024)); // true
 */
export function attachmentNeedsParts(db: Executor, bytes: Uint8Array): boolean {
  return db.binaryBytes !== true && bytes.byteLength > ATTACHMENT_PART_BYTES;
}

export async function storeAttachment(
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
  // A driver that sends bytes in binary gets them as they are, in one row (node-postgres: no
  // base64 text of the file built on the event loop, and a quarter fewer bytes written; issue 22,
  // items 4 and 5). Others get base64 text the database decodes (internal/bytea-base64.ts), one
  // part per statement: the row holds the first part and case_attachment_parts the rest, written
  // in the caller's transaction (attachmentNeedsParts).
  const binary = db.binaryBytes === true;
  const { bytes } = input;
  const first = binary ? bytes : bytes.subarray(0, ATTACHMENT_PART_BYTES);
  const owner = await insertItem(
    db,
    "case_attachments",
    input.orderId,
    input.caseNumber,
    input.attachmentIndex,
    `INSERT INTO case_attachments (order_id, position, case_number, filename, document_type, size_bytes, content, stored_at)
     SELECT $1, $3, co.case_number, $4, $5, $6, ${binary ? "$7::bytea" : "decode($7::text, 'base64')"}, $8
     FROM case_orders co WHERE co.order_id = $1 AND co.case_number = $2`,
    [
      input.orderId,
      input.caseNumber,
      input.attachmentIndex,
      input.filename,
      input.documentType,
      bytes.byteLength,
      binary ? first : byteaParam(first),
      input.at.toISOString(),
    ],
  );
  // Only the call that inserted the row writes the parts: a repeat ("exists") found them written
  // with it, in the same transaction.
  if (binary || typeof owner !== "object") return owner;
  for (let at = first.byteLength, part = 1; at < bytes.byteLength; at += ATTACHMENT_PART_BYTES, part++) {
    // PGlite answers a query in microtasks: without a turn of the event loop between parts, the
    // whole file would still be one stall for every other request.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await db.query(
      "INSERT INTO case_attachment_parts (order_id, position, part, content) VALUES ($1, $2, $3, decode($4::text, 'base64'))",
      [
        input.orderId,
        input.attachmentIndex,
        part,
        byteaParam(bytes.subarray(at, at + ATTACHMENT_PART_BYTES)),
      ],
    );
  }
  return owner;
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
  /** With when each came onto the case and its order's type: which letter's costs it carries. */
  invoices:
    | { amount_cents: number | string; due_date: string; added_at: string; pre_incasso: boolean }[]
    | string;
  paid_cents: number | string;
  payments: { amount_cents: number | string; payment_date: string }[] | string;
  letters:
    | {
        letter_date: string;
        sent_at: string;
        claims_through: string | null;
        collection_costs_cents: number | string;
      }[]
    | string;
}

export async function selectCaseState(
  db: Executor,
  query: { organisationId?: string; caseNumber: string },
): Promise<CaseStateRow | undefined> {
  const { rows } = await db.query<CaseStateRow>(
    `SELECT c.case_number, c.status, c.open, c.treatment_started_at IS NOT NULL AS in_treatment,
       EXISTS (SELECT 1 FROM case_debtors d WHERE d.case_number = c.case_number AND d.type = 'individual') AS consumer,
       COALESCE((SELECT json_agg(json_build_object('amount_cents', i.amount_cents, 'due_date', i.due_date::text,
                     'added_at', i.added_at, 'pre_incasso', o.type = 'pre-incasso'))
                   FROM case_invoices i JOIN case_orders o ON o.order_id = i.order_id
                  WHERE i.case_number = c.case_number), '[]'::json) AS invoices,
       COALESCE((SELECT sum(p.amount_cents) FROM case_payments p WHERE p.case_number = c.case_number), 0) AS paid_cents,
       COALESCE((SELECT json_agg(json_build_object('amount_cents', p.amount_cents, 'payment_date', p.payment_date::text))
                   FROM case_payments p WHERE p.case_number = c.case_number), '[]'::json) AS payments,
       COALESCE((SELECT json_agg(json_build_object('letter_date', l.letter_date::text, 'sent_at', l.sent_at,
                     'claims_through', l.claims_through, 'collection_costs_cents', l.collection_costs_cents))
                   FROM case_letters l WHERE l.case_number = c.case_number), '[]'::json) AS letters
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
