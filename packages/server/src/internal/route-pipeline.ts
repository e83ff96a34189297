import type { IncassoStore } from "@incasso/core";
import type { H3Event } from "h3";
import { ApiError, isApiError } from "../api-error.js";
import { authenticateRequest } from "../auth.js";
import type { Authenticate } from "../authenticate.js";
import type { BodyBudget } from "../body-budget.js";
import { readJsonBody } from "../json-body.js";
import { json, type RouteDefinition, type RouteGuard } from "../plugin.js";
import { problemResponse } from "../problem.js";
import { toApiError } from "../to-api-error.js";
import { parseOrThrow } from "../validation.js";
import type { Finish } from "./error-funnel.js";
import { declaresRequestBody, requestHeader } from "./request-headers.js";
import type { ApiRouteContext } from "./route-context.js";

/**
 * What {@link createRoutePipeline} needs from the API.
 *
 * @example
 * const input: RoutePipelineInput = { store, globalGuards: [], bodyBudget: undefined, finish, fullPath };
 */
export interface RoutePipelineInput {
  store: IncassoStore | undefined;
  /** A host's own authentication; undefined: the store's API keys. */
  authenticate?: Authenticate | undefined;
  globalGuards: readonly RouteGuard[];
  bodyBudget: BodyBudget | undefined;
  finish: Finish;
  /** Where the router finds a route: below the base path, or at the root for probes. */
  fullPath: (route: RouteDefinition) => string;
}

/**
 * Runs one route for one request and gives its answer (a thrown value is for the caller's error
 * funnel).
 *
 * @example
 * const response = runRoute(route, event, ctx);
 */
export type RunRoute = (route: RouteDefinition, event: H3Event, ctx: ApiRouteContext) => Promise<Response>;

/**
 * The steps of a request on its route (architecture, "A request, end to end"): auth → guards
 * (rate limit) → params and query → body → interceptors (idempotency) → handler, one async
 * path for every route.
 *
 * @example
 * const runRoute = createRoutePipeline({ store, globalGuards: [], bodyBudget: undefined, finish, fullPath });
 */
export function createRoutePipeline(input: RoutePipelineInput): RunRoute {
  const { store, authenticate, globalGuards, bodyBudget, finish, fullPath } = input;
  const guardsOf = new Map<RouteDefinition, readonly RouteGuard[]>();

  // Params and query through the route's schemas; a body on GET or DELETE refused when the route
  // reads none.
  function readParamsAndQuery(route: RouteDefinition, event: H3Event, ctx: ApiRouteContext): void {
    const req = route.request;
    const rawParams = (event.context.params ?? {}) as Record<string, string>;
    ctx.params = req?.params ? parseOrThrow(req.params, rawParams) : rawParams;
    // Most requests carry no query: no search parameters are parsed for them.
    const rawQuery = ctx.url.search.length > 1 ? Object.fromEntries(ctx.url.searchParams) : {};
    ctx.query = req?.query ? parseOrThrow(req.query, rawQuery) : rawQuery;
    if (
      !req?.body &&
      (route.method === "GET" || route.method === "DELETE") &&
      declaresRequestBody(event.req)
    ) {
      // RFC 9110 §9.3.1: content on GET has no meaning; refusing it beats silently ignoring it.
      throw new ApiError({
        status: 400,
        code: "body_not_allowed",
        detail: `${route.method} ${fullPath(route)} takes no request body.`,
      });
    }
  }

  // The handler (through the interceptors, if any) and the answer.
  async function respond(route: RouteDefinition, event: H3Event, ctx: ApiRouteContext): Promise<Response> {
    const interceptors = route.interceptors;
    if (interceptors === undefined || interceptors.length === 0) {
      return finish(event, ctx, await route.handle(ctx as never));
    }
    const run = async (): Promise<Response> => {
      try {
        const result = await route.handle(ctx as never);
        return result instanceof Response ? result : json(result);
      } catch (error) {
        // Interceptors see the handler's refusals as responses (idempotency keeps them).
        const mapped = toApiError(error);
        if (isApiError(mapped)) return problemResponse(mapped);
        throw mapped;
      }
    };
    const chain = interceptors.reduceRight<() => Promise<Response>>(
      (next, interceptor) => () => interceptor(ctx, next),
      run,
    );
    return finish(event, ctx, await chain());
  }

  // The body, read and validated, held in its share of the budget until the answer is made: the
  // decoded attachments live that long (decision server-body-budget).
  async function readBodyAndRespond(
    route: RouteDefinition,
    event: H3Event,
    ctx: ApiRouteContext,
  ): Promise<Response> {
    const req = route.request;
    if (!req?.body) return respond(route, event, ctx);
    const share = bodyBudget?.open(req.bodyBudgetWeight ?? 1);
    try {
      const body = await readJsonBody(event.req, {
        optional: req.bodyOptional ?? false,
        ...(req.maxBodyBytes ? { maxBytes: req.maxBodyBytes } : {}),
        ...(share ? { budget: share } : {}),
      });
      ctx.rawBody = body;
      ctx.body = req.bodyValidatedBy === "handler" ? body : parseOrThrow(req.body, body);
      return await respond(route, event, ctx);
    } finally {
      share?.release();
    }
  }

  return async (route, event, ctx) => {
    // A key is checked where the route requires one, and on an optional route when one is sent;
    // otherwise authentication has nothing to do (authenticateRequest would return at once). A
    // host's own authentication may read anything of the request (a cookie, another header), so
    // it is asked on every optional route too.
    const checksKey =
      route.auth === "required" ||
      (route.auth === "optional" &&
        (authenticate !== undefined || requestHeader(ctx.request, "authorization") !== null));
    if (checksKey) await authenticateRequest(ctx, route.auth, store, authenticate);
    let guards = guardsOf.get(route);
    if (guards === undefined) {
      guards = [...globalGuards, ...(route.guards ?? [])];
      guardsOf.set(route, guards);
    }
    for (const guard of guards) await guard(ctx);
    readParamsAndQuery(route, event, ctx);
    return readBodyAndRespond(route, event, ctx);
  };
}
