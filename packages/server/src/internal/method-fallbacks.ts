import type { H3, H3Event } from "h3";
import { FastResponse } from "srvx";
import { ApiError } from "../api-error.js";
import { type CorsPolicy, withCorsHeaders } from "../cors.js";
import type { RouteDefinition } from "../plugin.js";
import type { Finish } from "./error-funnel.js";
import type { IncassoRequestFacts } from "./request-facts.js";
import { requestHeader } from "./request-headers.js";
import type { ApiRouteContext } from "./route-context.js";
import { assertRoutableUrl } from "./url-checks.js";

/**
 * What {@link addMethodFallbacks} needs from the API.
 *
 * @example
 * addMethodFallbacks(app, { routes, fullPath, cors, finish, contextFor });
 */
export interface MethodFallbackInput {
  routes: readonly RouteDefinition[];
  fullPath: (route: RouteDefinition) => string;
  cors: CorsPolicy;
  finish: Finish;
  contextFor: (event: H3Event) => ApiRouteContext;
}

/**
 * The methods allowed at each path, as the `Allow` header lists them: every route's method, HEAD
 * beside GET (RFC 9110 §9.3.2), and OPTIONS.
 *
 * @example
 * allowedMethods(pingPlugin().routes, (r) => `/api/v1${r.path}`); // Map { "/api/v1/ping" => "GET, HEAD, OPTIONS" }
 */
export function allowedMethods(
  routes: readonly RouteDefinition[],
  fullPath: (route: RouteDefinition) => string,
): Map<string, string> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) {
    const path = fullPath(route);
    const methods = byPath.get(path) ?? [];
    methods.push(route.method);
    if (route.method === "GET") methods.push("HEAD");
    byPath.set(path, methods);
  }
  return new Map(
    [...byPath].map(([path, methods]) => [path, [...new Set([...methods, "OPTIONS"])].join(", ")]),
  );
}

/**
 * What the router answers itself when no route matches (architecture, Errors; h3 sends no 405 and
 * does not pass 404s through error middleware): at a known path, OPTIONS gets 204 with `Allow`
 * (and a CORS preflight its answer, decision server-cors) and any other method 405
 * `method_not_allowed` with `Allow` (spec Errors); anywhere else 404 `not_found`. Register after
 * the routes.
 *
 * @example
 * addMethodFallbacks(app, { routes, fullPath, cors, finish, contextFor });
 */
export function addMethodFallbacks(app: H3, input: MethodFallbackInput): void {
  const { routes, fullPath, cors, finish, contextFor } = input;
  const routesByPath = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    routesByPath.set(fullPath(route), [...(routesByPath.get(fullPath(route)) ?? []), route]);
  }
  for (const [path, allow] of allowedMethods(routes, fullPath)) {
    app.all(path, (event) => {
      (event.context as IncassoRequestFacts).incassoRoute = path;
      const ctx = contextFor(event);
      try {
        assertRoutableUrl(ctx.url);
      } catch (error) {
        return finish(event, ctx, undefined, error);
      }
      const atPath = routesByPath.get(path) ?? [];
      const origin = cors.enabled ? requestHeader(event.req, "origin") : null;
      if (event.req.method === "OPTIONS") {
        const requested = requestHeader(event.req, "access-control-request-method");
        const headers: [string, string][] = [["allow", allow]];
        if (origin !== null && requested !== null) {
          // A CORS preflight (Fetch, "CORS-preflight request"): positive only for an origin the
          // route allows; otherwise the plain answer, without Access-Control-Allow-Origin, which the
          // browser takes as a refusal.
          const pairs = cors.preflight(atPath, origin, requested.trim().toUpperCase());
          headers.push(
            ...(pairs ?? (atPath.some((r) => !r.root) ? [["vary", "Origin"] as [string, string]] : [])),
          );
        }
        return finish(event, ctx, new FastResponse(null, { status: 204, statusText: "No Content", headers }));
      }
      const refused = finish(
        event,
        ctx,
        undefined,
        new ApiError({
          status: 405,
          code: "method_not_allowed",
          detail: `${event.req.method} is not allowed on ${path}; use ${allow}.`,
          headers: { Allow: allow },
        }),
      );
      const first = atPath[0];
      return origin !== null && first !== undefined
        ? withCorsHeaders(refused, cors.actual(first, origin))
        : refused;
    });
  }
  const notFound = (event: H3Event) => {
    const ctx = contextFor(event);
    try {
      assertRoutableUrl(ctx.url);
    } catch (error) {
      return finish(event, ctx, undefined, error);
    }
    return finish(
      event,
      ctx,
      undefined,
      new ApiError({ status: 404, code: "not_found", detail: `No endpoint at ${ctx.url.pathname}.` }),
    );
  };
  app.all("/**", notFound);
  app.all("/", notFound);
}
