import type { KeyMode } from "../../api-key-format.js";
import { toHex } from "../../internal/bytes.js";
import { sha256 } from "../../internal/sha256.js";

/** What an id derived from an `Idempotency-Key` is made of. */
export interface KeyedIdInput {
  organisationId: string;
  mode: KeyMode;
  idempotencyKey: string;
  fingerprint: string;
}

/**
 * `<prefix>_` and the first 16 hex characters of a SHA-256 over a label, the organisation, the
 * key's mode, the key and the request's fingerprint: the one rule behind the order ids and the
 * control-request ids of keyed requests (decisions orders-engine-order-ids,
 * orders-control-idempotency). The label keeps the two kinds apart, so an action id never repeats
 * an order id's digits.
 *
 * @example
 * keyedId("ord", "incasso-order-id", { organisationId: "org_1", mode: "live", idempotencyKey: "k", fingerprint: "f" });
 */
export function keyedId(prefix: string, label: string, input: KeyedIdInput): string {
  // NUL separators: none of the parts can contain one, so no two different inputs share a text.
  const digest = toHex(
    sha256(
      `${label}\u0000${input.organisationId}\u0000${input.mode}\u0000${input.idempotencyKey}\u0000${input.fingerprint}`,
    ),
  );
  return `${prefix}_${digest.slice(0, 16)}`;
}
