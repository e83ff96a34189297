// Byte helpers on web-standard globals only (TextEncoder, btoa/atob, crypto.getRandomValues),
// so @incasso/core runs unchanged on Node, Deno, Bun, browsers and edge workers (issue 15: the
// kernel imports no node: built-in). The encodings are byte-identical to Node's Buffer ones the
// package used before: stored cursors and ids keep their form.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a text (Buffer.from(text, "utf8")). */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The text of UTF-8 bytes; invalid sequences become U+FFFD, as Buffer#toString("utf8") does. */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Lowercase hex, two characters per byte (Buffer#toString("hex")). */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** base64url without padding (RFC 4648 §5), as Buffer#toString("base64url") writes it. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of a base64url text, or null when it holds a character outside the alphabet or has an
 * impossible length. Unused trailing bits are ignored, like Node's decoder; callers that need the
 * one canonical spelling compare {@link toBase64Url} of the result with the input.
 */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `length` bytes from the platform's cryptographically secure generator (Web Crypto). */
export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}
