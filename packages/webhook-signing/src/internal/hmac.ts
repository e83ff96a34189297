import { createHmac } from "node:crypto";

/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4) of `timestamp + "." + body`, keyed with the UTF-8 bytes of
 * `secret`: the signed string of the spec (Events, "Headers and verification").
 *
 * A string body is hashed as its UTF-8 encoding, which is what `fetch` and Node send for a string
 * body; a byte body is hashed as is. For a string the signed string is built in one `update` call
 * because each `update` crosses into C++ and that dominates for small bodies.
 */
export function hmacSha256(secret: string, timestamp: string, body: string | Uint8Array): Buffer {
  const hmac = createHmac("sha256", secret);
  if (typeof body === "string") return hmac.update(`${timestamp}.${body}`, "utf8").digest();
  return hmac.update(`${timestamp}.`, "latin1").update(body).digest();
}
