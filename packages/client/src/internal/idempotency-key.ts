/**
 * A random version 4 UUID for the Idempotency-Key header. `crypto.randomUUID` exists in Node,
 * Deno, Bun and workers, but browsers offer it only in secure contexts (HTTPS), so the same UUID is
 * built from `crypto.getRandomValues` (RFC 9562 §5.4) where it is missing.
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
