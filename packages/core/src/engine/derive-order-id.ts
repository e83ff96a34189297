import type { KeyMode } from "../api-key-format.js";
import { keyedId } from "./internal/keyed-id.js";

/**
 * The order id of a request sent with an `Idempotency-Key`: `ord_` and the first 16 hex characters
 * of a SHA-256 over the organisation, the key's mode, the key and the request's fingerprint. A
 * retry of the same request (same organisation, mode, key and content) gets the same id, also after
 * a crash that lost the stored response, so the case system, which is idempotent on the order id,
 * never opens a second case for it (spec Errors 502: "retry later with the same Idempotency-Key";
 * decision orders-engine-order-ids). Different content under the same key gets another id, and so
 * does the same request sent with a key of the other mode: a test order never stands in for the
 * live one (spec Authentication: test keys validate and create no case).
 *
 * @example
 * deriveOrderId({ organisationId: "org_0123456789abcdef", mode: "live", idempotencyKey: "order-17", fingerprint: "9f2c…" });
 * // "ord_…" (16 lowercase hex), the same on every call with these inputs
 */
export function deriveOrderId(input: {
  organisationId: string;
  mode: KeyMode;
  idempotencyKey: string;
  fingerprint: string;
}): string {
  return keyedId("ord", "incasso-order-id", input);
}
