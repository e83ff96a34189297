// Standard base64 (RFC 4648 §4) without Buffer, which only Node, Bun and compatibility layers
// provide; btoa is a global on every runtime. Chunked, because String.fromCharCode takes its
// arguments on the stack.
const CHUNK = 0x8000;

/** The base64 text of `bytes`, padded, as Buffer#toString("base64") writes it. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  }
  return btoa(binary);
}

/**
 * The bytes of a base64 text already checked to be valid and compact (no whitespace). Node's
 * Buffer decodes large files several times faster, so it is used where the runtime has one.
 */
export function fromBase64(compact: string): Uint8Array {
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer) {
    const buffer = NodeBuffer.from(compact, "base64");
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  return fromBase64Portable(compact);
}

/** The decoder for runtimes without Buffer; exported for the test that compares both. */
export function fromBase64Portable(compact: string): Uint8Array {
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
