import { randomBytes } from "node:crypto";

// An incoming X-Request-Id is echoed only when it is short and plain, so a client cannot inject
// header content or flood logs through it.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Our own ids only need to be unique, not secret: a random 64-bit prefix per process and a counter,
// 32 hex digits as before, without drawing randomness for every request.
const PREFIX = `req_${randomBytes(8).toString("hex")}`;
let counter = randomBytes(4).readUInt32BE(0);

/** A fresh request id: `req_` and 32 hex digits, unique within and (by its random prefix) across processes. */
export function newRequestId(): string {
  counter = (counter + 1) % 0x1_0000_0000_0000;
  return PREFIX + counter.toString(16).padStart(16, "0");
}

/** The client's X-Request-Id when it is safe to echo, else a new id. */
export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming !== null && SAFE_ID.test(incoming) ? incoming : newRequestId();
}
