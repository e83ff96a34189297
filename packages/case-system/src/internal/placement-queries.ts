import {
  type CasePlacementInput,
  OPEN_CASE_ORDER,
  type OpenCaseOrderKey,
  openCaseQuery,
} from "@incasso/core";
import type { SqlStatement } from "@incasso/store-sql";
import { letterJobInsert } from "./letter-job-queries.js";

// The SQL of CaseSystem.placeOnCase (decision case-system-port-one-call-placement): a lock per
// debtor key, then one statement that finds the open case, opens or joins one and records the
// order's debtors with their addresses, its invoices and its note. The caller runs both in one
// transaction, the lock first: under READ COMMITTED every statement reads a snapshot taken when it
// starts, so the lookup must be a later statement than the lock to see a case that the lock's
// previous holder committed.

/**
 * Class of the advisory locks of a placement (the first key of `pg_advisory_xact_lock(int, int)`;
 * "inca" in ASCII), so they never meet the one-key locks of migrations or a host's own locks.
 */
export const PLACEMENT_LOCK_CLASS = 0x696e6361;

/**
 * The lock keys of a placement: one per customer number of the order within its organisation and
 * creditor (the scope in which an order joins an open case, decision
 * orders-engine-multiple-open-cases), and one for the order itself, so two calls for the same
 * order (a retry while the first still runs) wait for each other even without customer numbers.
 * Each key is hashed to 32 bits in SQL; two keys with one hash only wait for each other needlessly.
 *
 * @example
 * placementLockKeys({ orderId: "ord_1", organisationId: "org_1", creditor: { id: null, name: "A" }, debtors: [] });
 * // ['["order","ord_1"]']
 */
export function placementLockKeys(
  input: Pick<CasePlacementInput, "orderId" | "organisationId" | "creditor" | "debtors">,
): string[] {
  const keys = new Set([JSON.stringify(["order", input.orderId])]);
  for (const n of customerNumbers(input)) {
    keys.add(JSON.stringify([input.organisationId, input.creditor.id, n]));
  }
  return [...keys];
}

/** The customer numbers of the merge rule's scope (core's openCaseQuery), none when it has none. */
function customerNumbers(
  input: Pick<CasePlacementInput, "organisationId" | "creditor" | "debtors">,
): string[] {
  return openCaseQuery(input)?.customerNumbers ?? [];
}

/**
 * Each key of the merge rule's order (core's OPEN_CASE_ORDER) as a column of `cases`, compared as
 * core compares it: the opening moment, and the case number by code point (`COLLATE "C"`, as
 * JavaScript compares strings), whatever the database's collation.
 */
const ORDER_COLUMNS: Readonly<Record<OpenCaseOrderKey, string>> = {
  openedAt: "created_at",
  caseNumber: 'case_number COLLATE "C"',
};

/**
 * The ORDER BY terms of the merge rule, in core's order of keys, for the open cases found under
 * `alias` (or unqualified): the first row is the case the order joins.
 *
 * @example
 * openCaseOrderBy("f"); // 'f.created_at, f.case_number COLLATE "C"'
 */
export function openCaseOrderBy(alias?: string): string {
  return OPEN_CASE_ORDER.map((key) => (alias === undefined ? "" : `${alias}.`) + ORDER_COLUMNS[key]).join(
    ", ",
  );
}

// Taken in the order of their hashes, so two placements that share keys take them in the same
// order and cannot deadlock; held until the transaction ends (xact lock), released by COMMIT or
// ROLLBACK alike. The sorted subquery is planned on its own (ORDER BY keeps it from being pulled
// up), so the aggregate above it calls the lock function row by row in that order.
const LOCK = `SELECT count(pg_advisory_xact_lock(${PLACEMENT_LOCK_CLASS}, k))::int AS locks
  FROM (SELECT DISTINCT hashtext(key) AS k FROM unnest($1::text[]) AS key ORDER BY k) AS keys`;

/**
 * The lock statement of a placement, to run in its transaction before {@link placementStatement}.
 *
 * @example
 * await db.batch([placementLock(input), placementStatement(input, { mergeAllowed: true })]);
 */
export function placementLock(input: CasePlacementInput): SqlStatement {
  return { text: LOCK, params: [placementLockKeys(input)] };
}

const DEBTOR_COLUMNS = `position int, type text, name text, company_name text, first_name text,
  middle_name text, last_name text, customer_number text, email text, phone text, has_address boolean,
  street text, house_number text, house_number_suffix text, postal_code text, city text, country text`;

// One statement (read it top to bottom):
// - `placed`: the case the order is on already (a repeat: its own case, or the case it joined).
// - `found`: the open cases of the organisation and creditor with a debtor carrying one of the
//   order's customer numbers; `target` the oldest (opened first, then the lowest case number),
//   when the order is not placed yet.
// - Both lookups are written so that the plan PostgreSQL keeps for the prepared statement (a
//   generic plan, made without the parameters' values) can only start from the order id and from
//   each customer number through their indexes: with the organisation as a join condition, the
//   generic plan walked every case of the organisation for each order, so an order took longer
//   with every case (about 50 ms at 600 cases).
// - `$16` (merge allowed) false: an order that joins, or repeats a join, writes nothing here
//   (outcome `deferred`), because its invoices send `invoice.updated` and the caller then writes
//   them in a transaction with their events (decision case-system-webhook-events).
// - `c` opens a case only when the order is neither placed nor has an open case to join; the
//   case number is drawn only then (the one-time filter of the subquery).
// - `o` puts the order on the new or joined case; `d` adds its debtors with their addresses, `t`
//   its metadata note, `u` merges its custom fields into a joined case's.
// - A repeat (`repeat`) records the addresses again and adds the invoices that are missing; `i`
//   inserts each invoice at most once (order id and position).
// - `target` is the merge rule (decision orders-engine-multiple-open-cases) as core writes it
//   once: `found` is the scope of core's `openCaseQuery` and `inMergeScope` ($2, $3, $14), and the
//   ORDER BY is built from core's OPEN_CASE_ORDER (openCaseOrderBy), so the first row is the case
//   core's `chooseOpenCase` joins; none when the order is placed already. It lives in the
//   statement because the lookup must run under the lock in this transaction (decision
//   case-system-merge-rule-shared); merge-rule-parity.test.ts runs both on the same cases.
// - `j` records the 14-day letter job of a pre-incasso order when the order is put on the case
//   (decision case-system-wik-letter-jobs), in this statement's transaction.
const PLACE = `WITH on_case AS MATERIALIZED (
    SELECT co.case_number, c.opened_by_order_id = co.order_id AS own, c.organisation_id
    FROM case_orders co JOIN cases c ON c.case_number = co.case_number
    WHERE co.order_id = $1),
  placed AS (SELECT case_number, own FROM on_case WHERE organisation_id = $2),
  found AS (
    SELECT DISTINCT c.case_number, c.created_at
    FROM unnest($14::text[]) AS k(customer_number),
      LATERAL (SELECT d.case_number FROM case_debtors d
        WHERE d.organisation_id = $2 AND d.customer_number = k.customer_number OFFSET 0) AS d,
      LATERAL (SELECT c.case_number, c.created_at, c.open, c.creditor_id FROM cases c
        WHERE c.case_number = d.case_number OFFSET 0) AS c
    WHERE c.open AND c.creditor_id IS NOT DISTINCT FROM $3),
  target AS (
    SELECT case_number FROM found WHERE NOT EXISTS (SELECT 1 FROM placed)
    ORDER BY ${openCaseOrderBy()} LIMIT 1),
  repeat AS (SELECT case_number, own FROM placed WHERE own OR $16::boolean),
  joining AS (SELECT case_number FROM target WHERE $16::boolean),
  c AS (
    INSERT INTO cases (case_number, organisation_id, creditor_id, creditor_name, opened_by_order_id, type,
      reference, title, description, udf_fields, status, open, created_at, updated_at)
    SELECT $11 || '-' || CASE WHEN n.v < 1000000 THEN lpad(n.v::text, 6, '0') ELSE n.v::text END,
      $2, $3, $4, $1, $5, $6, $7, $8, $9::jsonb, 'Nieuw', true, $10, $10
    FROM (SELECT nextval('case_number_seq') AS v
          WHERE NOT EXISTS (SELECT 1 FROM placed) AND NOT EXISTS (SELECT 1 FROM target)) AS n
    RETURNING case_number),
  o AS (
    INSERT INTO case_orders (order_id, case_number, type, reference, title, description, added_at)
    SELECT $1, x.case_number, $5, $6, $7, $8, $10
    FROM (SELECT case_number FROM c UNION ALL SELECT case_number FROM joining) AS x
    RETURNING case_number),
  d AS (
    INSERT INTO case_debtors (order_id, position, case_number, organisation_id, type, name, company_name,
      first_name, middle_name, last_name, customer_number, email, phone, street, house_number,
      house_number_suffix, postal_code, city, country, address_set_at)
    SELECT $1, x.position, o.case_number, $2, x.type, x.name, x.company_name, x.first_name, x.middle_name,
      x.last_name, x.customer_number, x.email, x.phone, x.street, x.house_number, x.house_number_suffix,
      x.postal_code, x.city, x.country, CASE WHEN x.has_address THEN $10::timestamptz END
    FROM o, json_to_recordset($12::json) AS x(${DEBTOR_COLUMNS})
    RETURNING position, address_set_at IS NOT NULL AS addressed),
  a AS (
    UPDATE case_debtors cd SET street = x.street, house_number = x.house_number,
      house_number_suffix = x.house_number_suffix, postal_code = x.postal_code, city = x.city,
      country = x.country, address_set_at = $10
    FROM repeat, json_to_recordset($12::json) AS x(${DEBTOR_COLUMNS})
    WHERE cd.order_id = $1 AND cd.case_number = repeat.case_number AND cd.position = x.position
      AND x.has_address
    RETURNING cd.position),
  i AS (
    INSERT INTO case_invoices (order_id, position, case_number, invoice_number, invoice_date, due_date,
      amount_cents, description, added_at)
    SELECT $1, x.position, w.case_number, x.invoice_number, x.invoice_date::date, x.due_date::date,
      x.amount_cents, x.description, $10
    FROM (SELECT case_number FROM o UNION ALL SELECT case_number FROM repeat) AS w,
      json_to_recordset($15::json) AS x(position int, invoice_number text, invoice_date text,
        due_date text, amount_cents bigint, description text)
    ON CONFLICT (order_id, position) DO NOTHING
    RETURNING position),
  t AS (
    INSERT INTO case_notes (case_number, order_id, kind, text, created_at)
    SELECT o.case_number, $1, 'metadata', $13::text, $10 FROM o WHERE $13::text IS NOT NULL
    RETURNING id),
  u AS (
    UPDATE cases SET udf_fields = cases.udf_fields || $9::jsonb, updated_at = $10
    FROM joining WHERE cases.case_number = joining.case_number
    RETURNING cases.case_number),
  j AS (${letterJobInsert("o", "$1", "$5", "$10")})
  SELECT
    CASE WHEN EXISTS (SELECT 1 FROM repeat) THEN 'repeated'
         WHEN EXISTS (SELECT 1 FROM c) THEN 'opened'
         WHEN EXISTS (SELECT 1 FROM joining) THEN 'joined'
         ELSE 'deferred' END AS outcome,
    COALESCE((SELECT case_number FROM placed), (SELECT case_number FROM c),
      (SELECT case_number FROM target)) AS case_number,
    COALESCE((SELECT own FROM placed), EXISTS (SELECT 1 FROM c)) AS case_new,
    COALESCE((SELECT json_agg(f.case_number ORDER BY ${openCaseOrderBy("f")}) FROM found f),
      '[]'::json) AS open_cases,
    COALESCE((SELECT json_agg(p.position ORDER BY p.position)
      FROM (SELECT position FROM d WHERE addressed UNION ALL SELECT position FROM a) AS p), '[]'::json) AS addresses,
    COALESCE((SELECT json_agg(i.position ORDER BY i.position) FROM i), '[]'::json) AS invoices`;

/**
 * The placement statement. `mergeAllowed` false leaves an order that joins a case (or repeats a
 * join) alone: nothing is written and the outcome is `deferred`.
 *
 * @example
 * const [, placed] = await db.batch([placementLock(input), placementStatement(input, { mergeAllowed: false })]);
 * readPlacement(placed.rows[0]);
 */
export function placementStatement(
  input: CasePlacementInput,
  options: { mergeAllowed: boolean; year: number },
): SqlStatement {
  const addresses = new Map(input.addresses.map((a) => [a.debtorIndex, a.address]));
  const debtors = input.debtors.map((d, position) => {
    const a = addresses.get(position);
    return {
      position,
      type: d.type,
      name: d.name,
      company_name: d.company_name,
      first_name: d.first_name,
      middle_name: d.middle_name,
      last_name: d.last_name,
      customer_number: d.customer_number,
      email: d.email,
      phone: d.phone,
      has_address: a !== undefined,
      street: a?.street ?? null,
      house_number: a?.house_number ?? null,
      house_number_suffix: a?.house_number_suffix ?? null,
      postal_code: a?.postal_code ?? null,
      city: a?.city ?? null,
      country: a?.country ?? null,
    };
  });
  const invoices = input.invoices.map(({ invoiceIndex, invoice: i }) => ({
    position: invoiceIndex,
    invoice_number: i.invoice_number,
    invoice_date: i.invoice_date,
    due_date: i.due_date,
    amount_cents: i.amount_cents,
    description: i.description,
  }));
  return {
    text: PLACE,
    params: [
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
      String(options.year),
      JSON.stringify(debtors),
      input.note,
      customerNumbers(input),
      JSON.stringify(invoices),
      options.mergeAllowed,
    ],
  };
}

/**
 * What the placement statement did. `deferred`: the order joins a case (or repeats a join) and
 * merges were not allowed, so nothing was written; `caseNumber` is then the case it would join.
 */
export interface PlacementResult {
  outcome: "opened" | "joined" | "repeated" | "deferred";
  caseNumber: string;
  /** True when the order opened its case (now or, for a repeat, before). */
  caseNew: boolean;
  /** Every open case found for the order's customer numbers, oldest first. */
  openCases: string[];
  /** Positions of the debtors whose address this statement recorded. */
  addresses: number[];
  /** Positions of the invoices this statement inserted; the others were there already. */
  invoices: number[];
}

const list = <T>(value: unknown): T[] => (typeof value === "string" ? JSON.parse(value) : value) as T[];

/**
 * Reads the placement statement's one row.
 *
 * @example
 * const placed = readPlacement(rows[0]); // { outcome: "opened", caseNumber: "2026-000001", ... }
 */
export function readPlacement(row: Record<string, unknown> | undefined): PlacementResult {
  if (row === undefined || typeof row.case_number !== "string") {
    throw new Error("The placement statement returned no case.");
  }
  return {
    outcome: row.outcome as PlacementResult["outcome"],
    caseNumber: row.case_number,
    caseNew: Boolean(row.case_new),
    openCases: list<string>(row.open_cases),
    addresses: list<number>(row.addresses).map(Number),
    invoices: list<number>(row.invoices).map(Number),
  };
}
