import { randomBytes, toHex } from "./internal/bytes.js";

/**
 * A new identifier: a prefix and 16 lowercase hex characters (64 random bits), the form the spec
 * gives order ids (`ord_` + 16 hex, section Order) and that we use for every record we expose.
 *
 * @example
 * newId("cred"); // "cred_3f9a0c1d2e4b5a69"
 */
export function newId(prefix: "org" | "key" | "cred" | "ord" | "evt"): string {
  return `${prefix}_${toHex(randomBytes(8))}`;
}
