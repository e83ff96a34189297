import { FastResponse } from "srvx";
import { type ApiError, type FieldError, isApiError } from "./api-error.js";

/**
 * Where the problem `type` URIs live. The spec leaves their values open ("not shown"); we use one
 * URI per code under this base (docs/decisions/server-problem-types.md).
 */
export const PROBLEM_TYPE_BASE = "https://incasso.dev/problems/";

/**
 * The RFC 9457 body every error response carries (spec section Errors).
 *
 * @example
 * const p: ProblemDetails = { type: `${PROBLEM_TYPE_BASE}not_found`, title: "Not Found", status: 404, code: "not_found", detail: "No route." };
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

// The reason phrases of RFC 9110 §15 for the statuses the API sends: the problem title when none is
// given, and the status line's phrase on node (srvx writes a response's statusText as it is, so an
// answer without one would go out as "HTTP/1.1 200 " with the phrase left empty).
const TITLES: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  417: "Expectation Failed",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/**
 * The standard reason phrase for a status, used as the problem title when none is given.
 *
 * @example
 * statusTitle(422); // "Unprocessable Content"
 */
export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "");
}

/**
 * Turns any thrown value into problem details. An {@link ApiError} keeps its status and code;
 * anything else becomes a 500 `internal_error` whose detail reveals nothing of the cause.
 *
 * @example
 * toProblemDetails(new ApiError({ status: 404, code: "not_found", detail: "No such order." })).status; // 404
 */
export function toProblemDetails(error: unknown): ProblemDetails {
  if (!isApiError(error)) {
    return {
      type: `${PROBLEM_TYPE_BASE}internal_error`,
      title: statusTitle(500),
      status: 500,
      code: "internal_error",
      detail: "The server could not handle the request. Try again later.",
    };
  }
  const e: ApiError = error;
  const body: ProblemDetails = {
    ...e.extensions,
    type: `${PROBLEM_TYPE_BASE}${e.code}`,
    title: e.title ?? statusTitle(e.status),
    status: e.status,
    code: e.code,
    detail: e.detail,
  };
  if (e.errors) body.errors = e.errors;
  return body;
}

/**
 * The problem mapper: one `application/problem+json` response for any thrown value, with the
 * error's own headers (such as `Allow` or `Retry-After`) added.
 *
 * @example
 * const res = problemResponse(new ApiError({ status: 405, code: "method_not_allowed", detail: "Use GET.", headers: { Allow: "GET, HEAD" } }));
 * res.headers.get("allow"); // "GET, HEAD"
 */
export function problemResponse(error: unknown, headers?: HeadersInit): Response {
  const body = toProblemDetails(error);
  const h = new Headers(headers);
  h.set("content-type", "application/problem+json");
  h.set("cache-control", "no-store");
  if (isApiError(error)) for (const [k, v] of Object.entries(error.headers)) h.set(k, v);
  return new FastResponse(JSON.stringify(body), {
    status: body.status,
    statusText: statusTitle(body.status),
    headers: h,
  });
}
