import { FastResponse } from "srvx";
import { anonymousPingBody, pingTimeFormatter } from "../plugins/ping.js";
import { requestIdFromHeader } from "../request-id.js";
import { rememberResponseParts } from "../response-parts.js";
import { nodeHeadersOf } from "./request-headers.js";

/**
 * What the anonymous ping tells the caller about the request it answered, for the completion report.
 *
 * @example
 * const facts: AnsweredFacts = {};
 * ping(request, facts); // facts.incassoRoute === "/api/v1/ping" when it answered
 */
export interface AnsweredFacts {
  incassoRequestId?: string;
  incassoRoute?: string;
}

/**
 * Options of {@link anonymousPing}.
 *
 * @example
 * const options: AnonymousPingOptions = { path: "/api/v1/ping", cors: true };
 */
export interface AnonymousPingOptions {
  /** The full path of GET /ping, base path included (`/api/v1/ping`). */
  path: string;
  /** Whether CORS headers are sent at all (decision server-cors). */
  cors: boolean;
  /** The API's clock; without one the system clock is read. */
  now?: () => Date;
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Whether the absolute URL `url` has exactly `path` as its path, with no query and no fragment:
 * the text after the authority is `path`. The authority (from `://` to the path) must hold no `/`,
 * `?`, `#`, `\` or `@`, so the URL parser could not have read the path from anywhere else (WHATWG URL,
 * "special authority ignore slashes state"). Any other URL is left to the router.
 */
function hasExactPath(url: string, path: string): boolean {
  if (!url.endsWith(path)) return false;
  const end = url.length - path.length;
  const start = url.indexOf("://") + 3;
  if (start < 3 || end <= start) return false;
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    // / ? # \ @
    if (c === 47 || c === 63 || c === 35 || c === 92 || c === 64) return false;
  }
  return true;
}

/**
 * The answer to the commonest request of all, GET /ping without a key, made without the router:
 * the same status, headers and body the ping route gives (spec: GET /ping; decision
 * server-response-headers: X-Request-Id and X-Content-Type-Options), or `undefined` for any request
 * that needs more than that, which then takes the router's path: another method or path, a query,
 * an Authorization header (the key is checked), an Origin header while CORS is on (the CORS headers
 * are added), or a declared body (400 `body_not_allowed`). The router's work (an event, a route
 * context, the URL checks, the route lookup) is what a load balancer's or a monitor's ping pays
 * for nothing.
 *
 * @example
 * const ping = anonymousPing({ path: "/api/v1/ping", cors: true });
 * ping(new Request("http://localhost/api/v1/ping"), {})?.status; // 200
 */
export function anonymousPing(
  options: AnonymousPingOptions,
): (request: Request, facts: AnsweredFacts) => Response | undefined {
  const { path, cors, now } = options;
  const isoTime = pingTimeFormatter();
  // The body changes once per millisecond at most: it is made once for each. Without a clock of
  // the API's, the system time is read as a number, and a Date made only when it moved on.
  let lastMs = Number.NaN;
  let lastIso = "";
  let lastBody = "";
  const bodyAt = (date: Date): string => {
    const iso = isoTime(date);
    if (iso !== lastIso) {
      lastBody = anonymousPingBody(iso);
      lastIso = iso;
    }
    return lastBody;
  };
  return (request, facts) => {
    if (request.method !== "GET" || !hasExactPath(request.url, path)) return undefined;
    let incomingId: string | null | undefined;
    const node = nodeHeadersOf(request);
    if (node !== undefined) {
      // node's parsed headers: lower-case names, repeated values joined (request-headers.ts).
      if (node.authorization !== undefined || (cors && node.origin !== undefined)) return undefined;
      const length = node["content-length"];
      if ((length !== undefined && Number(length) > 0) || node["transfer-encoding"] !== undefined) {
        return undefined;
      }
      const id = node["x-request-id"];
      incomingId = typeof id === "string" ? id : id?.join(", ");
    } else {
      const headers = request.headers;
      if (headers.has("authorization") || (cors && headers.has("origin"))) return undefined;
      const length = headers.get("content-length");
      if ((length !== null && Number(length) > 0) || headers.has("transfer-encoding")) return undefined;
      incomingId = headers.get("x-request-id");
    }
    const requestId = requestIdFromHeader(incomingId);
    let body: string;
    if (now !== undefined) body = bodyAt(now());
    else {
      const ms = Date.now();
      if (ms !== lastMs) {
        bodyAt(new Date(ms));
        lastMs = ms;
      }
      body = lastBody;
    }
    facts.incassoRequestId = requestId;
    facts.incassoRoute = path;
    // The headers in the order the router's JSON answers have them.
    const headers: [string, string][] = [
      ["content-type", JSON_TYPE],
      ["x-request-id", requestId],
      ["x-content-type-options", "nosniff"],
    ];
    return rememberResponseParts(new FastResponse(body, { status: 200, statusText: "OK", headers }), {
      status: 200,
      headers,
      body,
    });
  };
}
