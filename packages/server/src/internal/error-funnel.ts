import type { Logger } from "@incasso/core";
import type { H3Event } from "h3";
import { FastResponse } from "srvx";
import { isApiError } from "../api-error.js";
import { problemResponse } from "../problem.js";
import { newRequestId } from "../request-id.js";
import { rememberResponseParts } from "../response-parts.js";
import { toApiError } from "../to-api-error.js";
import type { ApiRouteContext } from "./route-context.js";

/**
 * The answer to one request from what its route gave: a value (sent as JSON), a Response, or an
 * error. See {@link createErrorFunnel}.
 *
 * @example
 * const response = funnel.finish(event, ctx, undefined, new ApiError({ code: "not_found", detail: "No." }));
 */
export type Finish = (event: H3Event, ctx: ApiRouteContext, result: unknown, error?: unknown) => Response;

/**
 * The error funnel of {@link createErrorFunnel}.
 *
 * @example
 * const { finish, failed } = createErrorFunnel(logger);
 */
export interface ErrorFunnel {
  finish: Finish;
  /**
   * What the router could not answer itself (it answers its own errors as responses, so this is
   * only reached if that fails), still as a problem with the request's id.
   */
  failed(request: Request, requestId: string | undefined, error: unknown): Response;
}

/**
 * Adds the route's headers to a response, and the headers of every answer (decision
 * server-response-headers: X-Request-Id, X-Content-Type-Options); a HEAD answer loses its body.
 *
 * @example
 * withHeaders(response, ctx.addedHeaders(), ctx.requestId, false).headers.get("x-request-id");
 */
export function withHeaders(
  response: Response,
  extra: Headers | undefined,
  requestId: string,
  isHead: boolean,
): Response {
  let out = response;
  const add = () =>
    extra?.forEach((v, k) => {
      if (!out.headers.has(k)) out.headers.set(k, v);
    });
  try {
    add();
  } catch {
    // A Response with immutable headers (one returned by fetch) is copied once.
    out = new FastResponse(response.body, response);
    add();
  }
  out.headers.set("x-request-id", requestId);
  out.headers.set("x-content-type-options", "nosniff");
  // HEAD gets GET's headers without the body (RFC 9110 §9.3.2).
  return isHead
    ? new FastResponse(null, { status: out.status, statusText: out.statusText, headers: out.headers })
    : out;
}

/**
 * Where every answer of the router is made: a thrown value goes through the one error mapping
 * (toApiError) to a problem+json response (architecture, Errors), and one the mapping does not
 * know is logged with the request id and answered 500 `internal_error`, revealing nothing
 * (decision server-problem-types).
 *
 * @example
 * const { finish } = createErrorFunnel(consoleLogger);
 * return finish(event, ctx, { status: "ok" }); // 200 application/json
 */
export function createErrorFunnel(logger: Logger): ErrorFunnel {
  function finish(event: H3Event, ctx: ApiRouteContext, result: unknown, error?: unknown): Response {
    let response: Response;
    if (error !== undefined) {
      error = toApiError(error);
      if (!isApiError(error)) {
        logger.error("unhandled error", {
          requestId: ctx.requestId,
          method: event.req.method,
          path: ctx.url.pathname,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      response = problemResponse(error);
    } else if (result instanceof Response) response = result;
    else {
      // The common case, a value sent as JSON, builds its headers once as name-value pairs: no
      // Headers instance is made unless something reads them (the hot path of every route), and
      // srvx hands pairs to node as they are, where an object is first turned into entries.
      const headers: [string, string][] = [
        ["content-type", "application/json; charset=utf-8"],
        ["x-request-id", ctx.requestId],
        ["x-content-type-options", "nosniff"],
      ];
      // A header the route added is sent unless one of that name is already there (ours win, and
      // of a repeated name the first).
      ctx.addedHeaders()?.forEach((value, name) => {
        if (!headers.some((header) => header[0] === name)) headers.push([name, value]);
      });
      const body = event.req.method === "HEAD" ? null : JSON.stringify(result);
      return rememberResponseParts(new FastResponse(body, { status: 200, statusText: "OK", headers }), {
        status: 200,
        headers,
        body,
      });
    }
    return withHeaders(response, ctx.addedHeaders(), ctx.requestId, event.req.method === "HEAD");
  }

  function failed(request: Request, requestId: string | undefined, error: unknown): Response {
    const id = requestId ?? newRequestId();
    error = toApiError(error);
    if (!isApiError(error)) logger.error("unhandled error", { requestId: id, error: String(error) });
    return withHeaders(problemResponse(error), undefined, id, request.method === "HEAD");
  }

  return { finish, failed };
}
