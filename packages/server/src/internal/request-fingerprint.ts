import type { RouteContext } from "../plugin.js";
import { canonicalJsonParts } from "./canonical-json.js";
import { HEX_BYTE } from "./hex.js";

/**
 * The content of a request as the Idempotency-Key machinery compares it: SHA-256 over the method,
 * the path with its query and the canonical JSON body, so spacing and key order do not count as a
 * difference (decision idempotency-keys). Web Crypto's digest: every runtime has it, and on node
 * it hashes a 40 MB body off the event loop.
 *
 * @example
 * await fingerprintOf("POST", "/api/v1/orders", { type: "incasso" }); // 64 hex digits
 */
export async function fingerprintOf(method: string, target: string, body: unknown): Promise<string> {
  const bytes = await encodeParts([`${method} ${target}\n`, ...canonicalJsonParts(body)]);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += HEX_BYTE[byte];
  return hex;
}

// A piece of at least this many characters (an attachment's base64) is followed by a turn of the
// event loop: encoding 40 MB in one go held the thread that answers every request (issue 22, item 5).
const LARGE_PART = 1024 * 1024;

// The UTF-8 bytes of the pieces, joined: the same bytes as encoding their concatenation. Written
// straight into one buffer sized for ASCII (an order's base64 is ASCII), so a 40 MB body is not held
// twice more as encoded pieces; text with other characters takes the plain way.
async function encodeParts(parts: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  let chars = 0;
  for (const part of parts) chars += part.length;
  const out = new Uint8Array(chars);
  let at = 0;
  for (const part of parts) {
    if (part.length >= LARGE_PART) await new Promise((resolve) => setTimeout(resolve, 0));
    const { read, written } = encoder.encodeInto(part, out.subarray(at));
    // Out of room: a character took more than one byte.
    if (read !== part.length) return encoder.encode(parts.join(""));
    at += written;
  }
  return out;
}

const prints = new WeakMap<RouteContext, Promise<string>>();

/**
 * {@link fingerprintOf} of a route's request, worked out once per request: the idempotency
 * interceptor and the order id derived from the key (decision orders-engine-order-ids) use the
 * same one, and a 40 MB body is not walked twice.
 *
 * @example
 * const print = await requestFingerprint(ctx);
 */
export function requestFingerprint(ctx: RouteContext): Promise<string> {
  let print = prints.get(ctx);
  if (print === undefined) {
    print = fingerprintOf(ctx.request.method, `${ctx.url.pathname}${ctx.url.search}`, ctx.rawBody);
    prints.set(ctx, print);
  }
  return print;
}
