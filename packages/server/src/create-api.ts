import {
  type CaseSystem,
  createOrderEngine,
  type IncassoStore,
  type Logger,
  type OrderEngineOptions,
  WebhookEventSchema,
} from "@incasso/core";
import type { DocumentChecker, PdfEngine, TitleWriter } from "@incasso/pdf-guard";
import { H3, type H3Event } from "h3";
import { FastResponse } from "srvx";
import pkg from "../package.json" with { type: "json" };
import { ApiError, isApiError } from "./api-error.js";
import { authenticateRequest, principalOf } from "./auth.js";
import { createBodyBudget } from "./body-budget.js";
import { type CompletedRequest, ORDER_CREATED_STATE_KEY } from "./completed-request.js";
import { consoleLogger } from "./console-logger.js";
import { type CorsOptions, corsPolicy, withCorsHeaders } from "./cors.js";
import { anonymousPing } from "./internal/anonymous-ping.js";
import { declaresRequestBody, requestHeader } from "./internal/request-headers.js";
import { ApiRouteContext } from "./internal/route-context.js";
import { assertRoutableUrl } from "./internal/url-checks.js";
import { readJsonBody } from "./json-body.js";
import { assertKernelOptions } from "./kernel-options.js";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi.js";
import { EXAMPLE_WEBHOOK_EVENT, OPERATION_EXAMPLES } from "./openapi-examples.js";
import { type ApiPlugin, json, type RouteDefinition, type RouteGuard } from "./plugin.js";
import { creditorsPlugin } from "./plugins/creditors.js";
import { type HealthOptions, healthPlugin } from "./plugins/health.js";
import { openApiPlugin } from "./plugins/openapi.js";
import { ordersPlugin } from "./plugins/orders.js";
import { pingPlugin } from "./plugins/ping.js";
import { type RolRouterPluginOptions, rolRouterPlugin } from "./plugins/rol-router.js";
import { type WikPluginOptions, wikPlugin } from "./plugins/wik.js";
import { problemResponse } from "./problem.js";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.js";
import { newRequestId, requestIdFor } from "./request-id.js";
import { rememberResponseParts, responseParts } from "./response-parts.js";
import { StoreRateLimiter } from "./store-rate-limiter.js";
import { toApiError } from "./to-api-error.js";
import { parseOrThrow } from "./validation.js";

// The one logger shape of incasso (@incasso/core), under the name this module always exported.
export type { Logger };

/**
 * What a plugin factory gets from {@link createApi}: the store and the rate limiter the API uses,
 * so a plugin (the order endpoints) shares them with every other route.
 *
 * @example
 * const ordersPlugin = (env: PluginEnvironment) => definePlugin({ name: "orders", routes: [...] });
 */
export interface PluginEnvironment {
  store: IncassoStore | undefined;
  rateLimiter: RateLimiter;
  logger: Logger;
  now: () => Date;
}

/**
 * A plugin built from the API's environment.
 *
 * @example
 * const factory: PluginFactory = ({ store, rateLimiter }) => creditorsPlugin({ store: store!, rateLimiter });
 */
export type PluginFactory = (env: PluginEnvironment) => ApiPlugin;

/**
 * Options of {@link createApi}. `store` and `caseSystem` are required unless `publicOnly` is set
 * (decision server-kernel-required-options); the rest have defaults.
 *
 * @example
 * const options: CreateApiOptions = { store, caseSystem, basePath: "/api/v1", plugins: [myPlugin] };
 */
export interface CreateApiOptions {
  /** Path prefix of every route. Default `/api/v1` (spec section Versioning). */
  basePath?: string;
  /** Plugins added after the built-in ones (ping, openapi, tools, creditors); a factory gets the store. */
  plugins?: (ApiPlugin | PluginFactory)[];
  /** Guards run before every route's own guards, after authentication. */
  guards?: RouteGuard[];
  /**
   * The storage port (keys, creditors, orders, idempotency, counters). Required unless
   * `publicOnly`: every route with `auth` `required` or `optional` authenticates Bearer keys
   * against it. `createIncasso()` of `@incasso/app` opens one (PGlite or PostgreSQL).
   */
  store?: IncassoStore;
  /**
   * The case system orders are placed on. Required with a store unless `orders` is `false`:
   * `createIncasso()` passes the built-in one (`@incasso/case-system`) unless a host gives its own.
   */
  caseSystem?: CaseSystem;
  /** Compares attached PDFs with the declared data; default the offline rules checker. */
  documentChecker?: DocumentChecker;
  /** Writes a claim title when an order has none; default the Dutch template. */
  titleWriter?: TitleWriter;
  /**
   * Where attached PDFs are parsed, under time and memory limits: on Node, `getPdfEngine()` of
   * `@incasso/pdf-guard/node` (worker threads; `createIncasso()` passes it). Without one, PDFs
   * are parsed on the calling thread, where those limits do not apply (decision
   * pdf-guard-engine-injected): the kernel imports no worker threads of its own.
   */
  pdfEngine?: PdfEngine;
  /**
   * Serve only what needs no store: GET /ping, GET /openapi.json and the public tools. Without a
   * store and without this flag, createApi throws, so the protected endpoints are never dropped
   * by accident.
   */
  publicOnly?: boolean;
  /**
   * Where per-key counters live. Default: the store (shared by every instance on the database), or
   * memory without a store. The embedded single-process server passes a MemoryRateLimiter.
   */
  rateLimiter?: RateLimiter;
  /** Per-key limit of protected endpoints other than POST /orders; default 120 per minute. */
  apiRateLimit?: { perMinute?: number };
  /**
   * Bytes of request bodies, and of attachments decoded from them, in flight at most (decision
   * server-body-budget); default 160 MiB, for a host with 2 GB. Past it a request gets 503
   * `server_busy` with `Retry-After` before its body is read. `false`: no budget.
   */
  bodyBudgetBytes?: number | false;
  /** `false` leaves out GET/POST /creditors even with a store. */
  creditors?: false;
  /**
   * More options of the order engine (attachment limits, time budgets, and the like); `false`
   * leaves the order endpoints out.
   */
  orders?: false | Partial<Omit<OrderEngineOptions, "store" | "logger">>;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  logger?: Logger;
  /**
   * Called once for every answered request, after its response is made (decision
   * operations-logs): the host logs a line and counts it. It runs on the request's path, so it
   * should be quick; what it throws is logged and never reaches the client.
   */
  onResponse?: (request: CompletedRequest) => void;
  /** Absolute public URL of the API, shown as the OpenAPI server. */
  publicUrl?: string;
  /** The public tools, each on by default; `false` leaves one out. */
  tools?: { wik?: false | WikPluginOptions; rolRouter?: false | RolRouterPluginOptions };
  /**
   * GET /healthz and GET /readyz at the server's root (decision server-health-endpoints); on by
   * default, ready unless `readiness` says otherwise. `createIncasso()` passes the real check.
   */
  health?: false | HealthOptions;
  /**
   * Cross-origin calls from browsers (decision server-cors): by default any origin may call the
   * public endpoints and none the protected ones; `false` sends no CORS headers at all.
   */
  cors?: false | CorsOptions;
}

/**
 * Per-request facts a transport knows and a web Request does not carry.
 *
 * @example
 * await api.fetch(request, { clientIp: "203.0.113.7" });
 */
export interface RequestContext {
  /**
   * The client's IP address, for per-IP rate limits. Read once, and only when the request reaches
   * a route (GET /ping without a key does not), so a transport may work it out in a getter.
   */
  readonly clientIp?: string | undefined;
}

/**
 * The API as one web-standard handler, ready for any transport.
 *
 * @example
 * const api = createApi({ publicOnly: true });
 * const res = await api.fetch(new Request("http://localhost/api/v1/ping"));
 */
export interface IncassoApi {
  /** The path prefix every route lives under, such as `/api/v1`. */
  readonly basePath: string;
  /** Every registered route, plugins included. */
  readonly routes: readonly RouteDefinition[];
  /** Serves one request. Never throws: every failure is a problem+json response. */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /**
   * Serves one request like {@link IncassoApi.fetch}, but hands back the Response itself when the
   * route answered without waiting (GET /ping), so a transport that can write at once spends no
   * promise and no microtask on it. Never throws.
   *
   * @example
   * const answer = api.handle(request);
   * if (answer instanceof Promise) answer.then(send);
   * else send(answer);
   */
  handle(request: Request, context?: RequestContext): Response | Promise<Response>;
  /** The generated OpenAPI 3.1 document. */
  openapi(): OpenApiDocument;
}

function isReplay(response: Response): boolean {
  const parts = responseParts(response);
  if (parts === undefined) return response.headers.get("idempotency-replayed") === "true";
  return parts.headers.some(([name, value]) => name === "idempotency-replayed" && value === "true");
}

function normaliseBasePath(basePath: string): string {
  const trimmed = `/${basePath}`.replace(/\/+/g, "/").replace(/\/$/, "");
  return trimmed;
}

/**
 * The server's root as an OpenAPI server URL, for the root-level routes: the origin of an absolute
 * public URL, or `/`.
 */
function rootServerUrl(publicUrl: string | undefined): string {
  if (publicUrl === undefined) return "/";
  try {
    return new URL(publicUrl).origin;
  } catch {
    return "/";
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * What `fetch` hands the router for each request, read once before routing: h3 keeps this object
 * as the event's context (and adds its own `params` to it).
 */
interface IncassoRequestFacts {
  incassoRequestId?: string;
  incassoClientIp?: string | undefined;
  /** The matched route's pattern (set by its handler), for the completion report. */
  incassoRoute?: string;
  /** The request's route context, whose state holds the principal. */
  incassoContext?: ApiRouteContext;
}

function withHeaders(
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
 * Creates the API: an h3 app assembled from plugins, with problem+json errors, 404 and 405 with
 * `Allow`, and the OpenAPI document generated from the same route table.
 *
 * @throws {KernelOptionError} (`code` `missing_option`) without a `store` (unless `publicOnly`), or
 *   with a store but without a `caseSystem` (unless `orders: false`).
 *
 * @example
 * import { createApi } from "@incasso/server";
 * const api = createApi({ store, caseSystem }); // or createIncasso() from @incasso/app
 * const res = await api.fetch(new Request("http://localhost/api/v1/ping"));
 * console.log(res.status, await res.json()); // 200 { status: "ok", ... }
 */
export function createApi(options: CreateApiOptions = {}): IncassoApi {
  assertKernelOptions(options);
  const cors = corsPolicy(options.cors);
  const basePath = normaliseBasePath(options.basePath ?? "/api/v1");
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? consoleLogger;
  const bodyBudget =
    options.bodyBudgetBytes === false ? undefined : createBodyBudget(options.bodyBudgetBytes);
  const globalGuards = options.guards ?? [];
  let document: OpenApiDocument | undefined;
  const tools = options.tools ?? {};
  const store = options.publicOnly ? undefined : options.store;
  const rateLimiter = options.rateLimiter ?? (store ? new StoreRateLimiter(store) : new MemoryRateLimiter());
  const env: PluginEnvironment = { store, rateLimiter, logger, now };
  const orderOptions: Partial<Omit<OrderEngineOptions, "store" | "logger">> | undefined =
    options.orders === false
      ? undefined
      : {
          ...options.orders,
          ...(options.documentChecker ? { documentChecker: options.documentChecker } : {}),
          ...(options.titleWriter ? { titleWriter: options.titleWriter } : {}),
          ...(options.pdfEngine ? { pdfEngine: options.pdfEngine } : {}),
        };
  const caseSystem = options.caseSystem ?? orderOptions?.caseSystem;
  const plugins: ApiPlugin[] = [
    pingPlugin(),
    openApiPlugin(() => openapi()),
    ...(options.health === false ? [] : [healthPlugin(options.health, logger)]),
    ...(tools.wik === false ? [] : [wikPlugin(tools.wik)]),
    ...(tools.rolRouter === false ? [] : [rolRouterPlugin(tools.rolRouter)]),
    ...(store && options.creditors !== false
      ? [creditorsPlugin({ store, rateLimiter, perMinute: options.apiRateLimit?.perMinute, logger })]
      : []),
    ...(store && orderOptions && caseSystem
      ? [
          ordersPlugin({
            engine: createOrderEngine({
              ...orderOptions,
              store,
              caseSystem,
              logger,
            }),
            rateLimiter,
            logger,
            ...(options.apiRateLimit?.perMinute ? { perMinute: options.apiRateLimit.perMinute } : {}),
          }),
        ]
      : []),
    ...(options.plugins ?? []).map((p) => (typeof p === "function" ? p(env) : p)),
  ];
  const routes = plugins.flatMap((p) => p.routes);
  // Where the router finds a route: below the base path, or at the root for probes.
  const fullPath = (route: RouteDefinition) => (route.root ? route.path : basePath + route.path);

  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${fullPath(r)}`;
    if (seen.has(key)) throw new Error(`Two plugins declare ${r.method} ${r.path}.`);
    seen.add(key);
  }

  function openapi(): OpenApiDocument {
    document ??= buildOpenApiDocument({
      routes,
      basePath,
      title: "incasso debt-collection order API",
      version: pkg.version,
      description: "Submit collection orders, read and steer them, and use the public WIK and court tools.",
      tags: plugins.flatMap((p) => p.tags ?? []),
      ...(options.publicUrl ? { serverUrl: options.publicUrl } : {}),
      rootServerUrl: rootServerUrl(options.publicUrl),
      examples: OPERATION_EXAMPLES,
      webhooks: [
        {
          name: "event",
          operationId: "receiveEvent",
          example: EXAMPLE_WEBHOOK_EVENT,
          summary: "A change on one of the client's cases (or a ping), POSTed to its registered endpoint",
          description:
            "Verify X-Service-Signature over the raw body before parsing it, and reject a timestamp more than " +
            "300 seconds away (spec section Events). Tolerate unknown event types and fields.",
          schema: WebhookEventSchema,
          headers: {
            "X-Service-Signature": {
              description: 'Hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the signing secret.',
            },
            "X-Service-Timestamp": { description: "Unix seconds at signing." },
            "X-Service-Event": { description: "The event type." },
          },
        },
      ],
    });
    return document;
  }

  // h3 would refuse malformed percent-encoding itself with a plain 400; it routes such paths as they
  // are instead, and every handler below refuses them first with a problem (assertRoutableUrl).
  const app = new H3({ silent: true, allowMalformedURL: true });

  function contextFor(event: H3Event): ApiRouteContext {
    const facts = event.context as IncassoRequestFacts;
    const ctx = new ApiRouteContext(
      event.req,
      event.url,
      facts.incassoClientIp ?? (event.req as { ip?: string }).ip,
      facts.incassoRequestId ?? requestIdFor(event.req),
      now,
    );
    facts.incassoContext = ctx;
    return ctx;
  }

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

  const allowByPath = new Map<string, string[]>();
  const routesByPath = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    routesByPath.set(fullPath(route), [...(routesByPath.get(fullPath(route)) ?? []), route]);
    const methods = allowByPath.get(fullPath(route)) ?? [];
    methods.push(route.method);
    if (route.method === "GET") methods.push("HEAD");
    allowByPath.set(fullPath(route), methods);
  }

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

  // The handler (through the interceptors, if any) and the answer. Returns the Response itself
  // when the handler answered synchronously, so a simple route waits for nothing.
  function respond(
    route: RouteDefinition,
    event: H3Event,
    ctx: ApiRouteContext,
  ): Response | Promise<Response> {
    const interceptors = route.interceptors;
    if (interceptors === undefined || interceptors.length === 0) {
      const result = route.handle(ctx as never);
      return isThenable(result)
        ? result.then((value) => finish(event, ctx, value))
        : finish(event, ctx, result);
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
    return chain().then((response) => finish(event, ctx, response));
  }

  // Architecture, "A request, end to end": auth → rate limit → idempotency → route.
  async function runRoute(route: RouteDefinition, event: H3Event, ctx: ApiRouteContext): Promise<Response> {
    await authenticateRequest(ctx, route.auth, store);
    for (const guard of globalGuards) await guard(ctx);
    for (const guard of route.guards ?? []) await guard(ctx);
    readParamsAndQuery(route, event, ctx);
    const req = route.request;
    if (!req?.body) return respond(route, event, ctx);
    // The body's share of the budget is held until the answer is made: the decoded attachments
    // live that long (decision server-body-budget).
    const share = bodyBudget?.open(req.bodyBudgetWeight ?? 1);
    try {
      const body = await readJsonBody(event.req, {
        optional: req.bodyOptional ?? false,
        ...(req.maxBodyBytes ? { maxBytes: req.maxBodyBytes } : {}),
        ...(share ? { budget: share } : {}),
      });
      ctx.rawBody = body;
      ctx.body = parseOrThrow(req.body, body);
      return await respond(route, event, ctx);
    } finally {
      share?.release();
    }
  }

  for (const route of routes) {
    // A route with nothing to wait for before its handler: no key it must check, no guards, no body,
    // no interceptors (GET /ping, GET /openapi.json). Such a request is answered without a single
    // await when its handler is synchronous; an optional route still checks a key that is sent.
    const simple =
      route.auth !== "required" &&
      globalGuards.length === 0 &&
      (route.guards ?? []).length === 0 &&
      !route.request?.body &&
      (route.interceptors ?? []).length === 0;
    const fail = (event: H3Event, ctx: ApiRouteContext) => (error: unknown) =>
      finish(event, ctx, undefined, error);
    const pattern = fullPath(route);
    const answer = (event: H3Event): Response | Promise<Response> => {
      (event.context as IncassoRequestFacts).incassoRoute = pattern;
      const ctx = contextFor(event);
      try {
        assertRoutableUrl(ctx.url);
        if (!simple || (route.auth === "optional" && requestHeader(ctx.request, "authorization") !== null)) {
          return runRoute(route, event, ctx).catch(fail(event, ctx));
        }
        readParamsAndQuery(route, event, ctx);
        const response = respond(route, event, ctx);
        return isThenable(response) ? response.catch(fail(event, ctx)) : response;
      } catch (error) {
        return finish(event, ctx, undefined, error);
      }
    };
    // CORS headers only for a request that names its origin (a browser's cross-origin call), so
    // every other request pays one header lookup.
    const handler =
      cors.enabled && !route.root
        ? (event: H3Event): Response | Promise<Response> => {
            const response = answer(event);
            const origin = requestHeader(event.req, "origin");
            if (origin === null) return response;
            const pairs = cors.actual(route, origin);
            return isThenable(response)
              ? response.then((r) => withCorsHeaders(r, pairs))
              : withCorsHeaders(response, pairs);
          }
        : answer;
    app.on(route.method, fullPath(route), handler);
    if (route.method === "GET") app.on("HEAD", fullPath(route), handler);
  }

  // h3 sends no 405 and does not pass 404s through error middleware (architecture, Errors), so
  // every known path gets a catch-all for the other methods and everything else a 404.
  for (const [path, methods] of allowByPath) {
    const allow = [...new Set([...methods, "OPTIONS"])].join(", ");
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

  // What the router could not answer itself (it answers its own errors as responses, so this is
  // only reached if that fails), still as a problem with the request's id.
  function failed(request: Request, requestId: string | undefined, error: unknown): Response {
    const id = requestId ?? newRequestId();
    error = toApiError(error);
    if (!isApiError(error)) logger.error("unhandled error", { requestId: id, error: String(error) });
    return withHeaders(problemResponse(error), undefined, id, request.method === "HEAD");
  }

  // GET /ping without a key answered before the router (internal/anonymous-ping.ts), unless global
  // guards must see every request first.
  const ping =
    globalGuards.length === 0
      ? anonymousPing({
          path: `${basePath}/ping`,
          cors: cors.enabled,
          ...(options.now ? { now: options.now } : {}),
        })
      : undefined;

  function serve(
    request: Request,
    context: RequestContext | undefined,
    facts: IncassoRequestFacts,
  ): Response | Promise<Response> {
    let requestId: string | undefined;
    try {
      const pong = ping?.(request, facts);
      if (pong !== undefined) return pong;
      requestId = requestIdFor(request);
      facts.incassoRequestId = requestId;
      facts.incassoClientIp = context?.clientIp;
      // The URL checks (414, malformed percent-encoding) run in every route, on the URL the router
      // parsed: h3 routes such URLs as they are (allowMalformedURL), and the route refuses them.
      const response = app.request(request, undefined, facts as Record<string, unknown>);
      if (!isThenable(response)) return response;
      const id = requestId;
      return response.then(undefined, (error: unknown) => failed(request, id, error));
    } catch (error) {
      return failed(request, requestId, error);
    }
  }

  const onResponse = options.onResponse;

  // The completion report (decision operations-logs); a failing hook is logged, the response sent.
  function report(request: Request, facts: IncassoRequestFacts, response: Response, started: number): void {
    if (onResponse === undefined) return;
    try {
      const ctx = facts.incassoContext;
      const principal = ctx ? principalOf(ctx) : undefined;
      const order = ctx?.state[ORDER_CREATED_STATE_KEY] as CompletedRequest["orderCreated"] | undefined;
      onResponse({
        requestId: facts.incassoRequestId ?? response.headers.get("x-request-id") ?? "",
        method: request.method,
        route: facts.incassoRoute ?? null,
        status: response.status,
        durationMs: performance.now() - started,
        keyId: principal?.keyId ?? null,
        keyMode: principal?.mode ?? null,
        // From the parts when the answer has them: reading `headers` would build a Headers object
        // on every request, the cost the parts exist to avoid.
        replayed: isReplay(response),
        orderCreated: order ?? null,
      });
    } catch (error) {
      logger.error("onResponse hook failed", { error: String(error) });
    }
  }

  function handle(request: Request, context?: RequestContext): Response | Promise<Response> {
    const facts: IncassoRequestFacts = {};
    // Without a hook, no clock is read and nothing is added to the request's path.
    if (onResponse === undefined) return serve(request, context, facts);
    const started = performance.now();
    const response = serve(request, context, facts);
    if (!isThenable(response)) {
      report(request, facts, response, started);
      return response;
    }
    return response.then((r) => {
      report(request, facts, r, started);
      return r;
    });
  }

  function fetch(request: Request, context?: RequestContext): Promise<Response> {
    const response = handle(request, context);
    return isThenable(response) ? response : Promise.resolve(response);
  }

  return { basePath, routes, fetch, handle, openapi };
}
