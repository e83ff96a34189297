import type { RouteContext } from "../plugin.js";
import { canonicalJsonPieces } from "./canonical-json.js";
import { HEX_BYTE } from "./hex.js";
import { nextTurn } from "./next-turn.js";

/**
 * The content of a request as the Idempotency-Key machinery compares it: SHA-256 over the method,
 * the path with its query and the canonical JSON body, so spacing and key order do not count as a
 * difference (decision idempotency-keys).
 *
 * On node the canonical text is hashed piece by piece as it is made (node's incremental SHA-256),
 * with a turn of the event loop after every few MiB: the escaped copy of a 40 MB body and its
 * UTF-8 bytes are never held whole, and no step holds the thread that answers every request for
 * long (issue 22, items 4 and 5). Other runtimes join the bytes and use Web Crypto's digest, which
 * every runtime has. Both give the same digest.
 *
 * @example
 * await fingerprintOf("POST", "/api/v1/orders", { type: "incasso" }); // 64 hex digits
 */
export async function fingerprintOf(method: string, target: string, body: unknown): Promise<string> {
  const head = `${method} ${target}\n`;
  const crypto = nodeCrypto();
  const digest = crypto
    ? await hashPieces(crypto, head, body)
    : new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", await encodeParts(head, body)));
  let hex = "";
  for (const byte of digest) hex += HEX_BYTE[byte];
  return hex;
}

// After this many characters hashed, a turn of the event loop (issue 22, item 5).
const CHARS_BETWEEN_TURNS = 2 * 1024 * 1024;

type NodeCrypto = Pick<typeof import("node:crypto"), "createHash">;

// node's crypto module when the runtime has one, found without a static import so the kernel stays
// free of node built-ins (issue 15; process.getBuiltinModule exists from node 20.16).
function nodeCrypto(): NodeCrypto | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  if (typeof get !== "function") return undefined;
  const crypto = get("node:crypto") as Partial<NodeCrypto> | undefined;
  return typeof crypto?.createHash === "function" ? (crypto as NodeCrypto) : undefined;
}

async function hashPieces(crypto: NodeCrypto, head: string, body: unknown): Promise<Uint8Array> {
  const hash = crypto.createHash("sha256").update(head, "utf8");
  let sinceTurn = 0;
  for (const piece of canonicalJsonPieces(body)) {
    if (sinceTurn >= CHARS_BETWEEN_TURNS) {
      await nextTurn();
      sinceTurn = 0;
    }
    hash.update(piece, "utf8");
    sinceTurn += piece.length;
  }
  return hash.digest();
}

// The UTF-8 bytes of the head and the canonical body, joined: the same bytes as encoding their
// concatenation. Written straight into one buffer sized for ASCII (an order's base64 is ASCII);
// text with other characters takes the plain way. A turn of the event loop after every few MiB.
async function encodeParts(head: string, body: unknown): Promise<Uint8Array<ArrayBuffer>> {
  const parts = [head];
  let chars = head.length;
  for (const piece of canonicalJsonPieces(body)) {
    parts.push(piece);
    chars += piece.length;
  }
  const encoder = new TextEncoder();
  const out = new Uint8Array(chars);
  let at = 0;
  let sinceTurn = 0;
  for (const part of parts) {
    if (sinceTurn >= CHARS_BETWEEN_TURNS) {
      await nextTurn();
      sinceTurn = 0;
    }
    const { read, written } = encoder.encodeInto(part, out.subarray(at));
    // Out of room: a character took more than one byte.
    if (read !== part.length) return encoder.encode(parts.join(""));
    at += written;
    sinceTurn += part.length;
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
