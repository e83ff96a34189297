import { IDEMPOTENCY_LEASE_BOUNDS, idempotencyLeaseSeconds } from "@incasso/server";
import type { FlagSpec } from "./flag-spec.js";

/**
 * The flag of `incasso serve` that sets the Idempotency-Key lease (decision
 * idempotency-lease-setting), with its variable.
 *
 * @example
 * const SERVE_FLAGS = [...OTHER_FLAGS, IDEMPOTENCY_LEASE_FLAG];
 */
export const IDEMPOTENCY_LEASE_FLAG: FlagSpec = {
  name: "idempotency-lease",
  value: "SECONDS",
  env: "INCASSO_IDEMPOTENCY_LEASE_SECONDS",
  defaultText: `30; ${IDEMPOTENCY_LEASE_BOUNDS.min} to ${IDEMPOTENCY_LEASE_BOUNDS.max}`,
  description: "after a crash, retries with the same Idempotency-Key wait this long at most",
};

/**
 * The Idempotency-Key lease of `incasso serve` in seconds, from `--idempotency-lease`, else
 * `INCASSO_IDEMPOTENCY_LEASE_SECONDS`; undefined leaves the API's default (30 s). Checked here by
 * the API's own `idempotencyLeaseSeconds`, so a bad value stops serve before it opens anything.
 *
 * @throws {RangeError} for a value that is not a whole number of seconds within the bounds, naming
 *   the flag and the variable
 * @example
 * serveIdempotencyLease({ "idempotency-lease": "5" }, {}); // 5
 * serveIdempotencyLease({}, { INCASSO_IDEMPOTENCY_LEASE_SECONDS: "60" }); // 60
 * serveIdempotencyLease({}, {}); // undefined
 */
export function serveIdempotencyLease(
  values: { "idempotency-lease"?: string | boolean | undefined },
  env: Record<string, string | undefined> = process.env,
): number | undefined {
  const given = values["idempotency-lease"] ?? env.INCASSO_IDEMPOTENCY_LEASE_SECONDS;
  if (typeof given !== "string" || given.trim() === "") return undefined;
  const text = given.trim();
  // Digits only: Number() would also take "5e1", "0x10" or " 5.0 ".
  const seconds = /^[0-9]{1,4}$/.test(text) ? Number(text) : Number.NaN;
  try {
    return idempotencyLeaseSeconds(seconds);
  } catch {
    // The API's own check, its message naming the flag and the variable instead.
    const { min, max } = IDEMPOTENCY_LEASE_BOUNDS;
    throw new RangeError(
      `--idempotency-lease (INCASSO_IDEMPOTENCY_LEASE_SECONDS) must be a whole number of seconds from ${min} to ${max}, not ${given}`,
    );
  }
}
