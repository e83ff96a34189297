import { z } from "zod";

/**
 * The format of an order id (spec Order.id: "`ord_` followed by 16 lowercase hex characters").
 *
 * @example
 * ORDER_ID_PATTERN.test("ord_0123456789abcdef"); // true
 */
export const ORDER_ID_PATTERN = /^ord_[0-9a-f]{16}$/;

/**
 * A new order id: `ord_` and 16 lowercase hex characters from 8 cryptographically random bytes
 * (Web Crypto `getRandomValues`). With 64 random bits the chance of any collision among a million
 * orders is about 1 in 37 million; the store's primary key catches even that.
 *
 * @example
 * newOrderId(); // "ord_9f2c4e1a7b3d5f60" (random)
 */
export function newOrderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `ord_${hex}`;
}

/**
 * Whether `value` is a well-formed order id. GET /orders/{orderId} answers 404 (not 422) for a
 * malformed id, the same as for an unknown one, so the route checks with this before any lookup.
 *
 * @example
 * isOrderId("ord_0123456789abcdef"); // true
 * isOrderId("ord_0123456789ABCDEF"); // false (upper case)
 */
export function isOrderId(value: unknown): value is string {
  return typeof value === "string" && ORDER_ID_PATTERN.test(value);
}

/**
 * Schema of an order id, for the path parameter and the `id` fields in the OpenAPI document.
 *
 * @example
 * OrderIdSchema.parse("ord_0123456789abcdef");
 */
export const OrderIdSchema = z
  .string()
  .regex(ORDER_ID_PATTERN)
  .meta({ id: "OrderId", description: "Order id: `ord_` followed by 16 lowercase hex characters." });
