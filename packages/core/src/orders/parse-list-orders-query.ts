import { type CursorPosition, decodeCursor } from "./cursor.js";
import type { FieldError } from "./field-error.js";
import { issuesToFieldErrors } from "./internal/zod-issues.js";
import { type ListOrdersQuery, ListOrdersQuerySchema } from "./order-list-schema.js";

/**
 * The outcome of {@link parseListOrdersQuery}: the query with the cursor decoded (null on the
 * first page), or every invalid parameter.
 *
 * @example
 * const r: ListOrdersQueryParse = parseListOrdersQuery({});
 */
export type ListOrdersQueryParse =
  | { ok: true; query: Omit<ListOrdersQuery, "cursor"> & { cursor: CursorPosition | null } }
  | { ok: false; code: "validation_error"; errors: FieldError[] };

/**
 * Parses the query parameters of GET /orders (values as strings, as a URL gives them): the
 * filters, `limit` (1 to 100, default 25) and `cursor`. A repeated parameter arrives as an array
 * and is refused. Invalid values give 422 `validation_error` (decision orders-list-query), an
 * invalid cursor the field code `invalid_cursor`.
 *
 * @example
 * parseListOrdersQuery(Object.fromEntries(new URL("http://x/orders?limit=10&type=incasso").searchParams));
 * // { ok: true, query: { limit: 10, type: "incasso", cursor: null } }
 */
export function parseListOrdersQuery(query: Record<string, unknown>): ListOrdersQueryParse {
  const parsed = ListOrdersQuerySchema.safeParse(query);
  const errors: FieldError[] = parsed.success ? [] : issuesToFieldErrors(parsed.error.issues, query);
  let cursor: CursorPosition | null = null;
  if (typeof query.cursor === "string") {
    cursor = decodeCursor(query.cursor);
    if (cursor === null)
      errors.push({ field: "cursor", code: "invalid_cursor", message: "is not a cursor of this list" });
  }
  if (!parsed.success || errors.length > 0) return { ok: false, code: "validation_error", errors };
  const { cursor: _raw, ...rest } = parsed.data;
  return { ok: true, query: { ...rest, cursor } };
}
