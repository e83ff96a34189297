import type { z } from "zod";
import { encodeCursor } from "../orders/cursor.js";
import { customerNumberFilter } from "../orders/customer-number.js";
import type { OrderListSchema } from "../orders/order-list-schema.js";
import { parseListOrdersQuery } from "../orders/parse-list-orders-query.js";
import type { Principal } from "../principal.js";
import { toListItem } from "./internal/order-views.js";
import type { OrderEngine } from "./order-engine.js";
import { OrderEngineError } from "./order-engine-error.js";

/**
 * The spec's OrderList object (response of GET /orders).
 *
 * @example
 * const page: OrderList = await listOrders(engine, principal, { limit: "10" });
 */
export type OrderList = z.output<typeof OrderListSchema>;

/**
 * GET /orders as a call: the orders the key may see, newest first (created_at desc, id desc), with
 * the filters `case_number`, `reference`, `customer_number` (normalised as stored: NFC, no leading
 * or trailing spaces) and `type`, a page of `limit` (1 to
 * 100, default 25) and the opaque keyset `cursor` of the previous page. Visibility follows the key
 * (spec Authentication rule 5): `own` lists only orders submitted with this key, `organisation`
 * every API order of the organisation; never another organisation's. Keyset rather than offset,
 * so orders inserted while a client pages neither shift nor repeat a page.
 *
 * `query` is the query string as an object of strings (a repeated parameter as an array).
 *
 * @throws {OrderEngineError} `validation_error` (422) for an invalid limit, type or cursor.
 * @example
 * const page = await listOrders(engine, principal, { type: "incasso", limit: "10" });
 * if (page.has_more) await listOrders(engine, principal, { type: "incasso", limit: "10", cursor: page.next_cursor! });
 */
export async function listOrders(
  engine: Pick<OrderEngine, "store">,
  principal: Principal,
  query: Record<string, unknown> = {},
): Promise<OrderList> {
  const parsed = parseListOrdersQuery(query);
  if (!parsed.ok) {
    throw new OrderEngineError("validation_error", "The query has invalid parameters; see errors.", {
      errors: parsed.errors,
    });
  }
  const q = parsed.query;
  const rows = await engine.store.orders.list({
    organisationId: principal.organisationId,
    ...(principal.visibility === "own" ? { keyId: principal.keyId } : {}),
    ...(q.case_number !== undefined ? { caseNumber: q.case_number } : {}),
    ...(q.reference !== undefined ? { reference: q.reference } : {}),
    // Compared in the form stored (NFC, no padding spaces), as merging compares it.
    ...(q.customer_number !== undefined ? { customerNumber: customerNumberFilter(q.customer_number) } : {}),
    ...(q.type !== undefined ? { type: q.type } : {}),
    ...(q.cursor !== null ? { after: q.cursor } : {}),
    limit: q.limit,
  });
  const hasMore = rows.length > q.limit;
  const page = hasMore ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    object: "list",
    data: page.map(toListItem),
    has_more: hasMore,
    next_cursor:
      hasMore && last !== undefined ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
