import { randomUUID } from "node:crypto";

// An incoming X-Request-Id is echoed only when it is short and plain, so a client cannot inject
// header content or flood logs through it.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming !== null && SAFE_ID.test(incoming) ? incoming : `req_${randomUUID().replaceAll("-", "")}`;
}
