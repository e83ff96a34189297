import { createHash } from "node:crypto";
import { OrdersError } from "./errors.js";
import { isOrderId } from "./order-id.js";

/**
 * A position in the order list: the created_at and id of the last order of a page. GET /orders
 * is ordered by (created_at desc, id desc); the next page holds the orders whose
 * (created_at, id) is smaller than this pair (keyset pagination, so orders inserted meanwhile
 * neither shift nor repeat a page). `createdAt` is kept as the exact text given, so a store with
 * microsecond timestamps loses no precision.
 *
 * @example
 * const p: CursorPosition = { createdAt: "2026-11-21T10:15:00.123456Z", id: "ord_0123456789abcdef" };
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

// ISO 8601 date-time with an explicit offset, up to nanoseconds.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const VERSION = "v1";
const CHECK_BYTES = 6;
/** No cursor this package writes is longer; a longer one is refused before any decoding. */
const MAX_CURSOR_LENGTH = 200;

function check(payload: Buffer): Buffer {
  // Not a secret MAC: a forged position only moves the caller within its own visible orders
  // (visibility is enforced by the query), so a checksum that catches garbage and edits is
  // enough (decision orders-cursor).
  return createHash("sha256")
    .update("incasso-order-cursor")
    .update(payload)
    .digest()
    .subarray(0, CHECK_BYTES);
}

/**
 * Encodes a list position into an opaque `next_cursor` string (base64url of a versioned payload
 * and a 6-byte SHA-256 check).
 *
 * @throws {OrdersError} `invalid_argument` when `createdAt` is not an ISO 8601 date-time with an
 * offset or `id` is not an order id.
 * @example
 * const cursor = encodeCursor({ createdAt: "2026-11-21T10:15:00.000Z", id: "ord_0123456789abcdef" });
 * decodeCursor(cursor); // { createdAt: "2026-11-21T10:15:00.000Z", id: "ord_0123456789abcdef" }
 */
export function encodeCursor(position: { createdAt: string | Date; id: string }): string {
  const createdAt = position.createdAt instanceof Date ? isoOf(position.createdAt) : position.createdAt;
  if (!TIMESTAMP.test(createdAt))
    throw new OrdersError("invalid_argument", "createdAt must be an ISO 8601 date-time");
  if (!isOrderId(position.id)) throw new OrdersError("invalid_argument", "id must be an order id");
  const payload = Buffer.from(`${VERSION}|${createdAt}|${position.id}`, "utf8");
  return Buffer.concat([payload, check(payload)]).toString("base64url");
}

function isoOf(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new OrdersError("invalid_argument", "createdAt is an invalid Date");
  return date.toISOString();
}

/**
 * Decodes a cursor made by {@link encodeCursor}, or returns null for anything else: garbage, a
 * truncated or edited cursor, another version. The route answers null with 422
 * (`errors: [{ field: "cursor", code: "invalid_cursor" }]`, decision orders-list-query); it never
 * silently starts again at the first page.
 *
 * @example
 * decodeCursor("not-a-cursor"); // null
 */
export function decodeCursor(cursor: string): CursorPosition | null {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    return null;
  const bytes = Buffer.from(cursor, "base64url");
  // Node's decoder ignores stray bits; only the canonical spelling of the bytes is accepted.
  if (bytes.length <= CHECK_BYTES || bytes.toString("base64url") !== cursor) return null;
  const payload = bytes.subarray(0, bytes.length - CHECK_BYTES);
  if (!check(payload).equals(bytes.subarray(bytes.length - CHECK_BYTES))) return null;
  const parts = payload.toString("utf8").split("|");
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, createdAt = "", id = ""] = parts;
  if (!TIMESTAMP.test(createdAt) || !isOrderId(id)) return null;
  return { createdAt, id };
}
