import type { KeyMode } from "../api-key-format.js";
import { keyedId } from "./internal/keyed-id.js";

/**
 * The id of a control request (hold, withdraw, payments) sent with an `Idempotency-Key`: `act_`
 * and the first 16 hex characters of a SHA-256 over the organisation, the key's mode, the key and
 * the request's fingerprint (method, path with the order id and the action, canonical body). The
 * id is also the task id the case system is idempotent on (`CaseSystem.addTask`), so a retry of
 * the same request after a lost answer or a crash finds the task placed and the action stored
 * instead of placing a second task (decision orders-control-idempotency). Different content, another
 * order or another control request under the same key gets another id; so does the other mode.
 *
 * @example
 * deriveActionId({ organisationId: "org_0123456789abcdef", mode: "live", idempotencyKey: "hold-17", fingerprint: "9f2c…" });
 * // "act_…" (16 lowercase hex), the same on every call with these inputs
 */
export function deriveActionId(input: {
  organisationId: string;
  mode: KeyMode;
  idempotencyKey: string;
  fingerprint: string;
}): string {
  return keyedId("act", "incasso-action-id", input);
}
