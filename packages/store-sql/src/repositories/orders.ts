import type { HandlersPendingOption, OrderActionRecord, OrderRecord, OrderRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface OrderRow {
  id: string;
  organisation_id: string;
  key_id: string;
  mode: "live" | "test";
  type: "pre-incasso" | "incasso";
  reference: string | null;
  case_number: string | null;
  case_new: boolean;
  creditor_id: string | null;
  debtors: OrderRecord["debtors"];
  invoice_count: number;
  // bigint: pg returns it as text, PGlite as a number.
  total_amount_cents: string | number;
  metadata: OrderRecord["metadata"];
  udf_fields: OrderRecord["udfFields"];
  warnings: OrderRecord["warnings"];
  created_at: Date | string;
}

interface ActionRow {
  id: string;
  order_id: string;
  organisation_id: string;
  action: OrderActionRecord["action"];
  status: string;
  reason: string | null;
  amount_cents: string | number | null;
  payment_date: string | null;
  created_at: Date | string;
}

// `json` columns come back parsed from pg and PGlite alike; a driver that hands back text is read too.
const parsed = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

function order(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    keyId: row.key_id,
    mode: row.mode,
    type: row.type,
    reference: row.reference,
    caseNumber: row.case_number,
    caseNew: row.case_new,
    creditorId: row.creditor_id,
    debtors: parsed(row.debtors),
    invoiceCount: row.invoice_count,
    totalAmountCents: Number(row.total_amount_cents),
    metadata: parsed(row.metadata),
    udfFields: parsed(row.udf_fields),
    warnings: parsed(row.warnings),
    createdAt: toDate(row.created_at),
  };
}

function action(row: ActionRow): OrderActionRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    organisationId: row.organisation_id,
    action: row.action,
    status: row.status,
    reason: row.reason,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    paymentDate: row.payment_date,
    createdAt: toDate(row.created_at),
  };
}

// payment_date as text: a `date` read by pg becomes a Date at local midnight, which shifts the day
// in time zones west of UTC.
const ACTION_COLUMNS =
  "id, order_id, organisation_id, action, status, reason, amount_cents, payment_date::text AS payment_date, created_at";

const ORDER_COLUMNS = `id, organisation_id, key_id, mode, type, reference, case_number, case_new,
  creditor_id, debtors, customer_numbers, invoice_count, total_amount_cents, metadata, udf_fields,
  warnings, created_at`;

/**
 * The INSERT of an order row. With `endingIntent`, one statement that also ends the order's
 * unclaimed placement intent and inserts the row only when it did (decision
 * orders-engine-placement-intents); its parameters then carry their types, since a SELECT list
 * gives them none. With `options.handlersPending`, the same statement also writes the order's
 * pending handler run, only when it inserted the row (decision orders-host-hooks).
 *
 * @example
 * const { text, params } = orderInsertStatement(record, { endingIntent: true });
 */
export function orderInsertStatement(
  input: OrderRecord,
  options: { endingIntent: boolean } & HandlersPendingOption,
): { text: string; params: unknown[] } {
  const params = [
    input.id,
    input.organisationId,
    input.keyId,
    input.mode,
    input.type,
    input.reference,
    input.caseNumber,
    input.caseNew,
    input.creditorId,
    JSON.stringify(input.debtors),
    [...new Set(input.debtors.map((d) => d.customer_number).filter((n): n is string => n !== null))],
    input.invoiceCount,
    input.totalAmountCents,
    JSON.stringify(input.metadata),
    JSON.stringify(input.udfFields),
    JSON.stringify(input.warnings),
    ts(input.createdAt),
  ];
  const insert = options.endingIntent
    ? `INSERT INTO orders (${ORDER_COLUMNS})
         SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::boolean, $9::text,
           $10::json, $11::text[], $12::integer, $13::bigint, $14::json, $15::json, $16::json, $17::timestamptz
         FROM ended
         ON CONFLICT (id) DO NOTHING
         RETURNING id`
    : `INSERT INTO orders (${ORDER_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         ON CONFLICT (id) DO NOTHING
         RETURNING id`;
  const ended = options.endingIntent
    ? `ended AS (
           DELETE FROM placement_intents WHERE order_id = $1 AND claimed_at IS NULL RETURNING order_id)`
    : undefined;
  const pending = options.handlersPending;
  if (pending === undefined) {
    return {
      text:
        ended === undefined
          ? insert
          : `WITH ${ended}
         ${insert}`,
      params,
    };
  }
  // Every data-modifying part of a WITH runs, read or not; the run is written only for a row the
  // statement inserted.
  return {
    text: `WITH ${
      ended === undefined
        ? ""
        : `${ended},
         `
    }inserted AS (${insert}),
         pending AS (
           INSERT INTO pending_handlers (kind, id, order_id, organisation_id, principal, created_at)
           SELECT 'order', id, id, $2::text, $18::json, $19::timestamptz FROM inserted)
         SELECT id FROM inserted`,
    params: [...params, JSON.stringify(pending.principal), ts(pending.since)],
  };
}

/**
 * The record of an order as stored: the input, not the row read back (no JSON parsed again). The
 * json columns keep key order and timestamptz keeps the milliseconds of a Date.
 *
 * @example
 * const record = storedOrder(input);
 */
export function storedOrder(input: OrderRecord): OrderRecord {
  const { id, organisationId, keyId, mode, type, reference, caseNumber, caseNew, creditorId } = input;
  return {
    id,
    organisationId,
    keyId,
    mode,
    type,
    reference,
    caseNumber,
    caseNew,
    creditorId,
    debtors: input.debtors,
    invoiceCount: input.invoiceCount,
    totalAmountCents: input.totalAmountCents,
    metadata: input.metadata,
    udfFields: input.udfFields,
    warnings: input.warnings,
    createdAt: new Date(input.createdAt.getTime()),
  };
}

/**
 * Orders and their control requests on SQL. GET /orders is a keyset query on (created_at, id)
 * descending, so a deep page costs the same as the first (decision orders-cursor).
 *
 * @example
 * const page = await orderRepository(db).list({ organisationId: "org_0123456789abcdef", limit: 25 });
 */
export function orderRepository(db: Executor): OrderRepository {
  return {
    async insert(input, options) {
      const insert = orderInsertStatement(input, { endingIntent: false, ...options });
      const { rows } = await db.query<{ id: string }>(insert.text, insert.params);
      if (rows[0]) return { order: storedOrder(input), created: true };
      const existing = await db.query<OrderRow>("SELECT * FROM orders WHERE id = $1", [input.id]);
      const row = existing.rows[0];
      if (!row || row.organisation_id !== input.organisationId) {
        throw new Error(`Order id ${input.id} is taken by another organisation.`);
      }
      return { order: order(row), created: false };
    },
    async findById(organisationId, id) {
      const { rows } = await db.query<OrderRow>(
        "SELECT * FROM orders WHERE organisation_id = $1 AND id = $2",
        [organisationId, id],
      );
      return rows[0] ? order(rows[0]) : undefined;
    },
    async list(query) {
      const params: unknown[] = [query.organisationId];
      const where = ["organisation_id = $1"];
      const add = (sql: (n: number) => string, value: unknown) => {
        params.push(value);
        where.push(sql(params.length));
      };
      if (query.keyId !== undefined) add((n) => `key_id = $${n}`, query.keyId);
      if (query.caseNumber !== undefined) add((n) => `case_number = $${n}`, query.caseNumber);
      if (query.reference !== undefined) add((n) => `reference = $${n}`, query.reference);
      if (query.customerNumber !== undefined)
        add((n) => `customer_numbers @> ARRAY[$${n}::text]`, query.customerNumber);
      if (query.type !== undefined) add((n) => `type = $${n}`, query.type);
      if (query.after !== undefined) {
        params.push(query.after.createdAt, query.after.id);
        // Row comparison: strictly older, ties on created_at broken by id (both descending).
        where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
      }
      params.push(query.limit + 1);
      const { rows } = await db.query<OrderRow>(
        `SELECT * FROM orders WHERE ${where.join(" AND ")}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
        params,
      );
      return rows.map(order);
    },
    async addAction(input, options) {
      const params: unknown[] = [
        input.id,
        input.orderId,
        input.organisationId,
        input.action,
        input.status,
        input.reason,
        input.amountCents,
        input.paymentDate,
        ts(input.createdAt),
      ];
      const insert = `INSERT INTO order_actions (id, order_id, organisation_id, action, status, reason,
           amount_cents, payment_date, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         RETURNING ${ACTION_COLUMNS}`;
      const pending = options?.handlersPending;
      // With the host's handlers pending, their run in the same statement (decision
      // orders-host-hooks).
      const { rows } = await db.query<ActionRow>(
        pending === undefined
          ? insert
          : `WITH inserted AS (${insert}),
             pending AS (
               INSERT INTO pending_handlers (kind, id, order_id, organisation_id, principal, created_at)
               SELECT 'action', id, order_id, organisation_id, $10::json, $11::timestamptz FROM inserted)
             SELECT * FROM inserted`,
        pending === undefined ? params : [...params, JSON.stringify(pending.principal), ts(pending.since)],
      );
      const row = rows[0];
      if (!row) throw new Error("The order action was not stored.");
      return action(row);
    },
    async listActions(organisationId, orderId) {
      const { rows } = await db.query<ActionRow>(
        `SELECT ${ACTION_COLUMNS} FROM order_actions WHERE organisation_id = $1 AND order_id = $2
         ORDER BY created_at DESC, id DESC`,
        [organisationId, orderId],
      );
      return rows.map(action);
    },
  };
}
