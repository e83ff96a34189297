import { HEX_BYTE } from "./internal/hex.js";
import { requestHeader } from "./internal/request-headers.js";

// An incoming X-Request-Id is echoed only when it is short and plain, so a client cannot inject
// header content or flood logs through it.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Our own ids only need to be unique, not secret: a random 64-bit prefix per process and a 64-bit
// counter, 32 hex digits in all, without drawing randomness for every request. The counter is kept
// in two parts so that a request formats no large number: the upper 40 bits (from a random start)
// as a cached string, renewed once per 2^24 ids, and the lower 24 bits from a table of byte pairs.
// The random start is drawn at the first id, not when the module loads: workerd refuses random
// values in a worker's global scope ("Disallowed operation called within global scope"), so a
// draw at load would stop `createApi` from being imported there at all.
const LOW_IDS = 0x100_0000;
const HIGH_WRAP = 0x100_0000_0000;
let prefix = "";
let high = 0;
let low = LOW_IDS;
let highPart = "";

function seedIds(): void {
  const seed = globalThis.crypto.getRandomValues(new Uint8Array(12));
  prefix = `req_${Array.from(seed.subarray(0, 8), (byte) => HEX_BYTE[byte]).join("")}`;
  // One below the random start: the first id rolls it over to the start itself.
  high = (new DataView(seed.buffer, 8, 4).getUint32(0) + HIGH_WRAP - 1) % HIGH_WRAP;
}

/**
 * A fresh request id: `req_` and 32 hex digits, unique within and (by its random prefix) across
 * processes (decision server-response-headers).
 *
 * @example
 * newRequestId(); // "req_3f9c…" (32 hex digits after the prefix)
 */
export function newRequestId(): string {
  if (low === LOW_IDS) {
    if (prefix === "") seedIds();
    low = 0;
    high = (high + 1) % HIGH_WRAP;
    highPart = prefix + high.toString(16).padStart(10, "0");
  }
  const n = low++;
  return highPart + HEX_BYTE[n >>> 16] + HEX_BYTE[(n >>> 8) & 0xff] + HEX_BYTE[n & 0xff];
}

/**
 * The id of an answer to a request whose `X-Request-Id` header is `incoming`: the client's own when
 * it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`, else a new one. For answers a host writes
 * itself, before the API sees the request (decision server-response-headers).
 *
 * @example
 * requestIdFromHeader("client-7"); // "client-7"
 * requestIdFromHeader("two words"); // a new "req_…" id
 */
export function requestIdFromHeader(incoming: string | null | undefined): string {
  return typeof incoming === "string" && SAFE_ID.test(incoming) ? incoming : newRequestId();
}

/**
 * The request's X-Request-Id when it is safe to echo, else a new id.
 *
 * @example
 * requestIdFor(new Request("http://x/", { headers: { "x-request-id": "abc" } })); // "abc"
 */
export function requestIdFor(request: Request): string {
  return requestIdFromHeader(requestHeader(request, "x-request-id"));
}
