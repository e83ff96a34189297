// SHA-256 in plain JavaScript (@noble/hashes, audited, no dependencies) because its callers are
// synchronous (hashApiKey, deriveOrderId, the list cursor) and Web Crypto's digest is async only;
// node:crypto would tie the kernel to Node (issue 15).
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { utf8Bytes } from "./bytes.js";

/** The SHA-256 digest of the parts, in order; a text part is hashed as its UTF-8 bytes. */
export function sha256(...parts: Array<string | Uint8Array>): Uint8Array {
  const hash = nobleSha256.create();
  for (const part of parts) hash.update(typeof part === "string" ? utf8Bytes(part) : part);
  return hash.digest();
}
