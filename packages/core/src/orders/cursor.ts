import { isIsoDate } from "../calendar-dates.js";
import { fromBase64Url, toBase64Url, utf8Bytes, utf8Text } from "../internal/bytes.js";
import { sha256 } from "../internal/sha256.js";
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
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

// The shape and a real instant: a calendar date from year 1 (PostgreSQL has no year 0), a time of
// day, and an offset within ±14:00. A forged cursor with 2026-02-30 or +99:99 would otherwise
// reach the database's timestamp cast and fail there (a 500 instead of 422 invalid_cursor).
function isTimestamp(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (m === null) return false;
  const [, date = "", hh, mm, ss, , zone, oh, om] = m;
  if (!isIsoDate(date) || date < "0001-01-01") return false;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return false;
  return zone === "Z" || (Number(oh) * 60 + Number(om) <= 14 * 60 && Number(om) < 60);
}
const VERSION = "v1";
const CHECK_BYTES = 6;
/** No cursor this package writes is longer; a longer one is refused before any decoding. */
const MAX_CURSOR_LENGTH = 200;

function check(payload: Uint8Array): Uint8Array {
  // Not a secret MAC: a forged position only moves the caller within its own visible orders
  // (visibility is enforced by the query), so a checksum that catches garbage and edits is
  // enough (decision orders-cursor).
  return sha256("incasso-order-cursor", payload).subarray(0, CHECK_BYTES);
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
  if (!isTimestamp(createdAt))
    throw new OrdersError("invalid_argument", "createdAt must be an ISO 8601 date-time");
  if (!isOrderId(position.id)) throw new OrdersError("invalid_argument", "id must be an order id");
  const payload = utf8Bytes(`${VERSION}|${createdAt}|${position.id}`);
  const bytes = new Uint8Array(payload.length + CHECK_BYTES);
  bytes.set(payload);
  bytes.set(check(payload), payload.length);
  return toBase64Url(bytes);
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
  const bytes = fromBase64Url(cursor);
  // The decoder ignores stray bits; only the canonical spelling of the bytes is accepted.
  if (bytes === null || bytes.length <= CHECK_BYTES || toBase64Url(bytes) !== cursor) return null;
  const payload = bytes.subarray(0, bytes.length - CHECK_BYTES);
  const expected = check(payload);
  const given = bytes.subarray(bytes.length - CHECK_BYTES);
  if (expected.some((byte, i) => byte !== given[i])) return null;
  const parts = utf8Text(payload).split("|");
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, createdAt = "", id = ""] = parts;
  if (!isTimestamp(createdAt) || !isOrderId(id)) return null;
  return { createdAt, id };
}
