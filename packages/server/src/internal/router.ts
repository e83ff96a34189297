import { H3, type H3Event } from "h3";
import { type CorsPolicy, withCorsHeaders } from "../cors.js";
import type { RouteDefinition } from "../plugin.js";
import type { Finish } from "./error-funnel.js";
import { addMethodFallbacks } from "./method-fallbacks.js";
import type { IncassoRequestFacts } from "./request-facts.js";
import { requestHeader } from "./request-headers.js";
import type { ApiRouteContext } from "./route-context.js";
import type { RunRoute } from "./route-pipeline.js";
import { assertRoutableUrl } from "./url-checks.js";

/**
 * What {@link createRouter} needs from the API.
 *
 * @example
 * const app = createRouter({ routes, fullPath, cors, finish, contextFor, runRoute });
 */
export interface RouterInput {
  routes: readonly RouteDefinition[];
  fullPath: (route: RouteDefinition) => string;
  cors: CorsPolicy;
  finish: Finish;
  contextFor: (event: H3Event) => ApiRouteContext;
  runRoute: RunRoute;
}

/**
 * The h3 app that routes each request to its route: every route under its full path, HEAD beside
 * each GET (RFC 9110 §9.3.2: GET's headers without the body), the CORS headers of a cross-origin
 * call (decision server-cors), and the router's own answers (405, OPTIONS, 404) after them.
 *
 * @example
 * const app = createRouter({ routes, fullPath, cors, finish, contextFor, runRoute });
 * const response = await app.request(new Request("http://x/api/v1/ping"));
 */
export function createRouter(input: RouterInput): H3 {
  const { routes, fullPath, cors, finish, contextFor, runRoute } = input;
  // h3 would refuse malformed percent-encoding itself with a plain 400; it routes such paths as they
  // are instead, and every handler below refuses them first with a problem (assertRoutableUrl).
  const app = new H3({ silent: true, allowMalformedURL: true });
  for (const route of routes) {
    const pattern = fullPath(route);
    const answer = async (event: H3Event): Promise<Response> => {
      (event.context as IncassoRequestFacts).incassoRoute = pattern;
      const ctx = contextFor(event);
      try {
        assertRoutableUrl(ctx.url);
        return await runRoute(route, event, ctx);
      } catch (error) {
        return finish(event, ctx, undefined, error);
      }
    };
    // CORS headers only for a request that names its origin (a browser's cross-origin call), so
    // every other request pays one header lookup.
    const handler =
      cors.enabled && !route.root
        ? async (event: H3Event): Promise<Response> => {
            const response = await answer(event);
            const origin = requestHeader(event.req, "origin");
            return origin === null ? response : withCorsHeaders(response, cors.actual(route, origin));
          }
        : answer;
    app.on(route.method, pattern, handler);
    if (route.method === "GET") app.on("HEAD", pattern, handler);
  }
  addMethodFallbacks(app, { routes, fullPath, cors, finish, contextFor });
  return app;
}
