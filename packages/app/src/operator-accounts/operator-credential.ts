import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;

/** `iop_`, the 16 hex digits of the operator's id, `_`, 32 base62 characters (decision operators-credentials). */
const CREDENTIAL_PATTERN = /^iop_([0-9a-f]{16})_[0-9A-Za-z]{32}$/;

/**
 * A new operator id: `op_` and 16 random hex digits, like the ids of API keys.
 *
 * @example
 * newOperatorId(); // "op_3f9c0a1b2d4e5f60"
 */
export function newOperatorId(): string {
  return `op_${randomBytes(8).toString("hex")}`;
}

/**
 * A new credential for the operator `id`: `iop_<hex of the id>_` and 32 uniformly random base62
 * characters (about 190 bits, rejection sampling as for API keys; decision keys-format-and-hashing).
 * The id part lets a login find the operator by id and count failures against it.
 *
 * @example
 * generateOperatorCredential("op_0123456789abcdef"); // "iop_0123456789abcdef_7Qm2…" (53 characters)
 */
export function generateOperatorCredential(id: string): string {
  const hex = id.slice("op_".length);
  let secret = "";
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(48)) {
      // 248 = 4 × 62: bytes below it map to base62 without modulo bias.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
    }
  }
  return `iop_${hex}_${secret}`;
}

/**
 * The operator id a credential names, or undefined when the string does not have the exact shape
 * of one (refused before the database is asked).
 *
 * @example
 * operatorIdOf("iop_0123456789abcdef_" + "a".repeat(32)); // "op_0123456789abcdef"
 */
export function operatorIdOf(credential: string): string | undefined {
  const hex = CREDENTIAL_PATTERN.exec(credential)?.[1];
  return hex === undefined ? undefined : `op_${hex}`;
}

/**
 * The stored form of a credential: SHA-256, hex. A fast hash is enough for 190 random bits, as
 * for API keys (decision keys-format-and-hashing).
 *
 * @example
 * hashOperatorCredential("iop_0123456789abcdef_" + "a".repeat(32)).length; // 64
 */
export function hashOperatorCredential(credential: string): string {
  return createHash("sha256").update(credential, "utf8").digest("hex");
}

/**
 * Whether a credential matches a stored hash, in constant time: the comparison takes as long
 * wherever the first differing byte is.
 *
 * @example
 * credentialMatches(credential, record.credentialHash); // true
 */
export function credentialMatches(credential: string, storedHash: string): boolean {
  const given = Buffer.from(hashOperatorCredential(credential), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}
