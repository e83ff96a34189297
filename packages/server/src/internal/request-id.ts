import { randomBytes } from "node:crypto";
import { requestHeader } from "./request-headers.js";

// An incoming X-Request-Id is echoed only when it is short and plain, so a client cannot inject
// header content or flood logs through it.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Our own ids only need to be unique, not secret: a random 64-bit prefix per process and a 64-bit
// counter, 32 hex digits in all, without drawing randomness for every request. The counter is kept
// in two parts so that a request formats no large number: the upper 40 bits (from a random start)
// as a cached string, renewed once per 2^24 ids, and the lower 24 bits from a table of byte pairs.
const PREFIX = `req_${randomBytes(8).toString("hex")}`;
const LOW_IDS = 0x100_0000;
const HIGH_WRAP = 0x100_0000_0000;
const HEX_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
let high = randomBytes(4).readUInt32BE(0);
let low = 0;
let highPart = PREFIX + high.toString(16).padStart(10, "0");

/** A fresh request id: `req_` and 32 hex digits, unique within and (by its random prefix) across processes. */
export function newRequestId(): string {
  if (low === LOW_IDS) {
    low = 0;
    high = (high + 1) % HIGH_WRAP;
    highPart = PREFIX + high.toString(16).padStart(10, "0");
  }
  const n = low++;
  return highPart + HEX_BYTE[n >>> 16] + HEX_BYTE[(n >>> 8) & 0xff] + HEX_BYTE[n & 0xff];
}

/** The client's X-Request-Id when it is safe to echo, else a new id. */
export function requestIdFor(request: Request): string {
  const incoming = requestHeader(request, "x-request-id");
  return incoming !== null && SAFE_ID.test(incoming) ? incoming : newRequestId();
}
