import { createHash } from "node:crypto";
import type { RouteContext } from "../plugin.js";
import { canonicalJson } from "./canonical-json.js";

/**
 * The content of a request as the Idempotency-Key machinery compares it: SHA-256 over the method,
 * the path with its query and the canonical JSON body, so spacing and key order do not count as a
 * difference (decision idempotency-keys).
 *
 * @example
 * fingerprintOf("POST", "/api/v1/orders", { type: "incasso" }); // 64 hex digits
 */
export function fingerprintOf(method: string, target: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${target}\n${canonicalJson(body)}`)
    .digest("hex");
}

const prints = new WeakMap<RouteContext, string>();

/**
 * {@link fingerprintOf} of a route's request, worked out once per request: the idempotency
 * interceptor and the order id derived from the key (decision orders-engine-order-ids) use the
 * same one, and a 40 MB body is not walked twice.
 *
 * @example
 * const print = requestFingerprint(ctx);
 */
export function requestFingerprint(ctx: RouteContext): string {
  let print = prints.get(ctx);
  if (print === undefined) {
    print = fingerprintOf(ctx.request.method, `${ctx.url.pathname}${ctx.url.search}`, ctx.rawBody);
    prints.set(ctx, print);
  }
  return print;
}
