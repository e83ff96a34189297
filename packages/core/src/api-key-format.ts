import { randomBytes, toHex } from "./internal/bytes.js";
import { sha256 } from "./internal/sha256.js";

/**
 * Whether a key creates cases (`live`) or only validates (`test`) (spec section Authentication).
 *
 * @example
 * const mode: KeyMode = "test";
 */
export type KeyMode = "live" | "test";

/**
 * Which orders a key sees: only its own, or every API order of its organisation (spec section
 * Authentication, rule 5).
 *
 * @example
 * const visibility: KeyVisibility = "organisation";
 */
export type KeyVisibility = "own" | "organisation";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Characters of randomness after the prefix: 32 base62 characters carry 32 × log2(62) ≈ 190.5
 * bits, above the 160 bits we require (docs/decisions/keys-format-and-hashing.md).
 */
export const API_KEY_RANDOM_LENGTH = 32;

/** The exact shape of a key; anything else is refused before the database is asked. */
export const API_KEY_PATTERN = /^svc_(live|test)_[0-9A-Za-z]{32}$/;

/**
 * A new API key: `svc_live_` or `svc_test_` (spec section Authentication, rule 2) followed by 32
 * uniformly random base62 characters. Shown once; only its hash is stored.
 *
 * @example
 * generateApiKey("test"); // "svc_test_7Qm2...": 41 characters
 */
export function generateApiKey(mode: KeyMode): string {
  let out = "";
  while (out.length < API_KEY_RANDOM_LENGTH) {
    for (const byte of randomBytes(48)) {
      // Rejection sampling: 248 = 4 × 62, so bytes below it map to base62 without modulo bias.
      if (byte < 248 && out.length < API_KEY_RANDOM_LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return `svc_${mode}_${out}`;
}

/**
 * The stored form of a key: SHA-256, hex. A fast hash is right here because the key is 190 random
 * bits, not a password: a slow hash protects low-entropy secrets against guessing, and nobody can
 * guess 2^190 candidates however fast each try is (docs/decisions/keys-format-and-hashing.md).
 *
 * @example
 * hashApiKey("svc_test_00000000000000000000000000000000").length; // 64
 */
export function hashApiKey(key: string): string {
  return toHex(sha256(key));
}

/**
 * Whether a string has the exact shape of an API key (prefix, 32 base62 characters).
 *
 * @example
 * isWellFormedApiKey("svc_live_abc"); // false
 */
export function isWellFormedApiKey(value: string): boolean {
  return value.length === 9 + API_KEY_RANDOM_LENGTH && API_KEY_PATTERN.test(value);
}

/**
 * The mode a key's prefix announces, or undefined for a string that is no key.
 *
 * @example
 * keyModeOf("svc_live_" + "a".repeat(32)); // "live"
 */
export function keyModeOf(value: string): KeyMode | undefined {
  if (!isWellFormedApiKey(value)) return undefined;
  return value.startsWith("svc_live_") ? "live" : "test";
}

/**
 * A short, harmless reminder of a key for listings: its prefix and last four characters. Four
 * base62 characters reveal about 24 of the 190 bits, leaving far more than enough.
 *
 * @example
 * apiKeyHint("svc_test_" + "a".repeat(28) + "WXYZ"); // "svc_test_…WXYZ"
 */
export function apiKeyHint(key: string): string {
  return `${key.slice(0, 9)}…${key.slice(-4)}`;
}
