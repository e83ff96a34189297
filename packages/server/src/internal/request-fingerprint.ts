import type { RouteContext } from "../plugin.js";
import { canonicalJson } from "./canonical-json.js";
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
  const bytes = new TextEncoder().encode(`${method} ${target}\n${canonicalJson(body)}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += HEX_BYTE[byte];
  return hex;
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
