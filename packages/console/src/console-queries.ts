import type { ConsoleDelivery } from "./console-operations.js";

/**
 * Runs one SQL statement with `$1`-style parameters: the store's `database` (PGlite or
 * PostgreSQL) has this shape.
 *
 * @example
 * const db: ConsoleDatabase = store.database;
 */
export interface ConsoleDatabase {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * One row of the case list.
 *
 * @example
 * const row: CaseListRow = { case_number: "2026-000001", organisation: "Acme BV", reference: "F-1", status: "Nieuw",
 *   open: true, debtors: "Voorbeeld B.V.", principal_cents: 125000, paid_cents: 0, open_tasks: 0, created_at: new Date() };
 */
export interface CaseListRow {
  case_number: string;
  organisation: string;
  reference: string | null;
  status: string;
  open: boolean;
  debtors: string;
  principal_cents: number;
  paid_cents: number;
  open_tasks: number;
  created_at: Date;
}

/**
 * The case list's filters and page: `q` is a case number, a reference or a customer number (exact),
 * or the start of a debtor's name; `after` is the last row of the previous page.
 *
 * @example
 * const query: CaseListQuery = { q: "Jansen", status: "Nieuw", limit: 25 };
 */
export interface CaseListQuery {
  q?: string;
  status?: string;
  after?: { createdAt: string; caseNumber: string };
  limit: number;
  /** From this many debtors whose name starts with `q`, the cases are walked newest first; default 1,000. */
  walkFrom?: number;
}

/**
 * The range of lower-cased names that start with `text`: from the text to the text with its last
 * character one code point higher, compared bytewise (`~>=~`, `~<~`, the operators of
 * `text_pattern_ops`). A range with parameters uses the index in a generic plan too, where
 * `LIKE $1` does not (the store prepares its statements, and PostgreSQL switches a prepared
 * statement to a generic plan after five runs).
 *
 * @example
 * prefixRange("Jan"); // ["jan", "jao"]
 */
export function prefixRange(text: string): [string, string] {
  const chars = Array.from(text.toLowerCase());
  const last = chars.pop() as string;
  const next = (last.codePointAt(0) as number) + 1;
  // Past the last code point there is no higher one; U+10FFFF itself never ends a real name.
  return [chars.join("") + last, chars.join("") + String.fromCodePoint(Math.min(next, 0x10ffff))];
}

/** From this many debtors whose name starts with the search, the list walks the cases instead. */
const COMMON_NAME = 1000;

/**
 * A page of cases, newest first, with one more row than asked when there is a next page. Keyset
 * paging on (created_at, case_number) (decision console-stack): each page costs the same however
 * deep, where OFFSET would read every row before it. The search is a union of indexed lookups, so
 * no query scans all cases.
 *
 * @example
 * const rows = await listCases(store.database, { q: "2026-000001", limit: 25 });
 */
export async function listCases(db: ConsoleDatabase, query: CaseListQuery): Promise<CaseListRow[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const q = query.q?.trim();
  if (q) {
    const range = prefixRange(q);
    params.push(q, ...range);
    // A name start shared by many cases (1,000 or more) is searched by walking the cases newest
    // first and stopping at the page's end; a rarer one by collecting its few cases through the
    // indexes and sorting them. Either way no search reads every case (docs/benchmarks/console.md).
    const walkFrom = query.walkFrom ?? COMMON_NAME;
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM case_debtors
         WHERE lower(name) ~>=~ $1 AND lower(name) ~<~ $2 LIMIT $3) m`,
      [...range, walkFrom],
    );
    if ((rows[0]?.n ?? 0) >= walkFrom) {
      where.push(`(c.case_number = $1 OR c.reference = $1 OR EXISTS (
        SELECT 1 FROM case_debtors d WHERE d.case_number = c.case_number
          AND (d.customer_number = $1 OR (lower(d.name) ~>=~ $2 AND lower(d.name) ~<~ $3))))`);
    } else {
      where.push(`c.case_number IN (
      SELECT case_number FROM cases WHERE case_number = $1
      UNION SELECT case_number FROM cases WHERE reference = $1
      UNION SELECT case_number FROM case_debtors WHERE customer_number = $1
      UNION SELECT case_number FROM case_debtors WHERE lower(name) ~>=~ $2 AND lower(name) ~<~ $3)`);
    }
  }
  if (query.status) {
    params.push(query.status);
    where.push(`c.status = $${params.length}`);
  }
  if (query.after) {
    params.push(query.after.createdAt, query.after.caseNumber);
    where.push(`(c.created_at, c.case_number) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(query.limit + 1);
  const { rows } = await db.query<CaseListRow>(
    `SELECT c.case_number, o.name AS organisation, c.reference, c.status, c.open, c.created_at,
       COALESCE((SELECT string_agg(d.name, ', ' ORDER BY d.order_id, d.position) FROM case_debtors d
         WHERE d.case_number = c.case_number), '') AS debtors,
       COALESCE((SELECT sum(i.amount_cents) FROM case_invoices i WHERE i.case_number = c.case_number), 0)::float8 AS principal_cents,
       COALESCE((SELECT sum(p.amount_cents) FROM case_payments p WHERE p.case_number = c.case_number), 0)::float8 AS paid_cents,
       (SELECT count(*) FROM case_tasks t WHERE t.case_number = c.case_number AND t.status = 'open')::int AS open_tasks
     FROM cases c JOIN organisations o ON o.id = c.organisation_id
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY c.created_at DESC, c.case_number DESC
     LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at) }));
}

/**
 * A webhook event of a case's orders with its delivery state.
 *
 * @example
 * const e: CaseEventRow = { id: "evt_0123456789abcdef", type: "payment.received", state: "delivered", attempts: 1,
 *   last_status: 204, created_at: new Date() };
 */
export interface CaseEventRow {
  id: string;
  type: string;
  state: string;
  attempts: number;
  last_status: number | null;
  created_at: Date;
}

/**
 * The webhook events about a case's orders, newest first (at most 200): every case event names
 * the order it concerns in `data.order_id` (decision case-system-webhook-events).
 *
 * @example
 * const events = await caseEvents(store.database, ["ord_0123456789abcdef"]);
 */
export async function caseEvents(db: ConsoleDatabase, orderIds: string[]): Promise<CaseEventRow[]> {
  if (orderIds.length === 0) return [];
  const { rows } = await db.query<CaseEventRow>(
    `SELECT id, type, state, attempts, last_status, created_at FROM webhook_events
     WHERE ((payload::jsonb) -> 'data' ->> 'order_id') = ANY($1::text[])
     ORDER BY created_at DESC, id DESC LIMIT 200`,
    [orderIds],
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at) }));
}

/**
 * A warning the API gave an order of a case when it was placed (spec Warning), as the order row
 * keeps it.
 *
 * @example
 * const w: OrderWarningRow = { order_id: "ord_0123456789abcdef", code: "pdf_active_content",
 *   message: "Bijlage script.pdf (attachments[0]) bevat actieve inhoud: JavaScript. …", invoice_number: null };
 */
export interface OrderWarningRow {
  order_id: string;
  code: string;
  message: string;
  invoice_number: string | null;
}

/** A row's JSON text, or null when it is not JSON: one bad row must not take the case page down. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The warnings of a case's orders, in the order of the ids given and, per order, as they were
 * answered: the handler sees what the client was told, such as a PDF with active content (decision
 * pdf-guard-active-content).
 *
 * @example
 * const warnings = await orderWarnings(store.database, ["ord_0123456789abcdef"]);
 */
export async function orderWarnings(db: ConsoleDatabase, orderIds: string[]): Promise<OrderWarningRow[]> {
  if (orderIds.length === 0) return [];
  const { rows } = await db.query<{ id: string; warnings: unknown }>(
    "SELECT id, warnings FROM orders WHERE id = ANY($1::text[])",
    [orderIds],
  );
  const byId = new Map(rows.map((r) => [r.id, r.warnings]));
  const out: OrderWarningRow[] = [];
  for (const id of orderIds) {
    // json columns come back parsed from PGlite and node-postgres alike; text is parsed here too.
    const raw = byId.get(id);
    const list: unknown = typeof raw === "string" ? parseOrNull(raw) : raw;
    if (!Array.isArray(list)) continue;
    for (const w of list as Array<Record<string, unknown>>) {
      out.push({
        order_id: id,
        code: String(w.code),
        message: String(w.message),
        invoice_number: typeof w.invoice_number === "string" ? w.invoice_number : null,
      });
    }
  }
  return out;
}

/**
 * An organisation with its counts, for the organisations page.
 *
 * @example
 * const o: OrganisationRow = { id: "org_0123456789abcdef", name: "Acme BV", creditor_name: "Acme BV", created_at: new Date(),
 *   keys: 2, cases: 10, webhook_url: null };
 */
export interface OrganisationRow {
  id: string;
  name: string;
  creditor_name: string;
  created_at: Date;
  keys: number;
  cases: number;
  webhook_url: string | null;
}

/**
 * Every organisation by name, with its active keys, its cases and its webhook endpoint.
 *
 * @example
 * const organisations = await listOrganisations(store.database);
 */
export async function listOrganisations(db: ConsoleDatabase): Promise<OrganisationRow[]> {
  const { rows } = await db.query<OrganisationRow>(
    `SELECT o.id, o.name, o.creditor_name, o.created_at,
       (SELECT count(*) FROM api_keys k WHERE k.organisation_id = o.id AND k.revoked_at IS NULL)::int AS keys,
       (SELECT count(*) FROM cases c WHERE c.organisation_id = o.id)::int AS cases,
       (SELECT w.url FROM webhook_endpoints w WHERE w.organisation_id = o.id) AS webhook_url
     FROM organisations o ORDER BY o.name`,
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at) }));
}

/**
 * One change made in the console, with who made it.
 *
 * @example
 * const entry: AuditEntry = { operatorId: "opr_0123456789abcdef", operatorName: "Jan", action: "payment.booked",
 *   caseNumber: "2026-000001", subject: null, detail: "€ 50,00 op 25-11-2026" };
 */
export interface AuditEntry {
  operatorId: string;
  operatorName: string;
  action: string;
  caseNumber: string | null;
  subject: string | null;
  detail: string | null;
}

/**
 * Records a change in the console's audit trail (table `console_audit`).
 *
 * @example
 * await recordAudit(store.database, new Date(), entry);
 */
export async function recordAudit(db: ConsoleDatabase, at: Date, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO console_audit (at, operator_id, operator_name, action, case_number, subject, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [at, entry.operatorId, entry.operatorName, entry.action, entry.caseNumber, entry.subject, entry.detail],
  );
}

/**
 * A recorded change, as the case page shows it.
 *
 * @example
 * const row: AuditRow = { at: new Date(), operator_id: "opr_0123456789abcdef", operator_name: "Jan", action: "note.added", subject: null, detail: "Gebeld" };
 */
export interface AuditRow {
  at: Date;
  operator_id: string;
  operator_name: string;
  action: string;
  subject: string | null;
  detail: string | null;
}

/**
 * The audit trail of a case, newest first (at most 200).
 *
 * @example
 * const trail = await caseAudit(store.database, "2026-000001");
 */
export async function caseAudit(db: ConsoleDatabase, caseNumber: string): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>(
    `SELECT at, operator_id, operator_name, action, subject, detail FROM console_audit
     WHERE case_number = $1 ORDER BY id DESC LIMIT 200`,
    [caseNumber],
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at) }));
}

/**
 * One webhook event with its delivery state and the exact body sent on every attempt (the
 * outbox's `payload`), or undefined.
 *
 * @example
 * const event = await findEvent(store.database, "evt_0123456789abcdef");
 */
export async function findEvent(
  db: ConsoleDatabase,
  eventId: string,
): Promise<(ConsoleDelivery & { payload: string }) | undefined> {
  const { rows } = await db.query<
    Omit<ConsoleDelivery, "created_at"> & { created_at: Date | string; payload: string }
  >(
    `SELECT e.id AS event_id, o.name AS organisation, e.type, e.state, e.attempts, e.created_at,
       e.last_status, e.last_error, e.payload
     FROM webhook_events e JOIN organisations o ON o.id = e.organisation_id WHERE e.id = $1`,
    [eventId],
  );
  const row = rows[0];
  return row ? { ...row, created_at: new Date(row.created_at).toISOString() } : undefined;
}

/**
 * An open task of a case, for the list of what needs attention.
 *
 * @example
 * const t: OpenTaskRow = { id: "act_0123456789abcdef", case_number: "2026-000001", action: "hold",
 *   instructions: "Zet de zaak in de wacht.", reason: null, amount_cents: null, created_at: new Date() };
 */
export interface OpenTaskRow {
  id: string;
  case_number: string;
  action: string;
  instructions: string;
  reason: string | null;
  amount_cents: number | null;
  created_at: Date;
}

/**
 * The open tasks of every case, newest first (at most `limit`), from the index on (status,
 * created_at, id) of migration 30.
 *
 * @example
 * const tasks = await openTasks(store.database, 100);
 */
export async function openTasks(db: ConsoleDatabase, limit: number): Promise<OpenTaskRow[]> {
  const { rows } = await db.query<OpenTaskRow>(
    `SELECT id, case_number, kind AS action, instructions, reason, amount_cents::float8 AS amount_cents, created_at
     FROM case_tasks WHERE status = 'open' ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    ...r,
    amount_cents: r.amount_cents === null ? null : Number(r.amount_cents),
    created_at: new Date(r.created_at),
  }));
}
