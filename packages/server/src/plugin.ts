import { FastResponse } from "srvx";
import type { z } from "zod";
import { statusTitle } from "./problem.js";

/** HTTP methods a route can be declared for. HEAD is served from GET automatically. */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route: `none` (public), `optional` (a key is read when sent, as GET /ping does) or
 * `required` (401 without a valid key). Shown as `security` in the OpenAPI document.
 *
 * @example
 * const auth: RouteAuth = "optional";
 */
export type RouteAuth = "none" | "optional" | "required";

/**
 * One documented response of a route.
 *
 * @example
 * const ok: RouteResponse = { description: "The calculation.", schema: WikCalculationSchema };
 */
export interface RouteResponse {
  description: string;
  /** Body schema; problem responses (4xx/5xx) get the Problem schema when this is omitted. */
  schema?: z.ZodType;
  /** Response headers, documented by name. */
  headers?: Record<string, { description: string; schema?: { type: "string" | "integer" } }>;
  /**
   * An example body for the OpenAPI document, or a function that makes it when the document is
   * built (a tool's answer computed by the tool itself). Problem responses without one get the
   * kernel's example for their status.
   */
  example?: unknown;
}

/**
 * Everything a handler receives. `body`, `query` and `params` are already validated against the
 * route's schemas.
 *
 * @example
 * const handle = (ctx: RouteContext) => ({ status: "ok", path: ctx.url.pathname });
 */
export interface RouteContext<Body = unknown, Query = unknown, Params = unknown> {
  request: Request;
  url: URL;
  body: Body;
  query: Query;
  params: Params;
  /** The client's IP as the transport reported it, or undefined in-process. */
  clientIp: string | undefined;
  /** The request id, also sent back as `X-Request-Id`. */
  requestId: string;
  /** Headers added to whatever response this request ends with, errors included (RateLimit-*). */
  responseHeaders: Headers;
  /** Per-request state that guards fill in for handlers (for example the authenticated principal). */
  state: Record<string, unknown>;
  /** The current time; injectable through `createApi({ now })` so tests are deterministic. */
  now: () => Date;
  /**
   * The JSON body as parsed, before schema validation (undefined when the route reads none). The
   * idempotency fingerprint is taken from it, so defaults and stripped fields cannot hide a change.
   */
  rawBody?: unknown;
}

/**
 * A check that runs before the body is read, such as a rate limit. It throws an ApiError to refuse
 * the request and may add response headers.
 *
 * @example
 * const onlyJson: RouteGuard = (ctx) => { ctx.responseHeaders.set("Vary", "Accept"); };
 */
export type RouteGuard = (ctx: RouteContext) => void | Promise<void>;

/**
 * Code that runs around a route's handler, after the guards and after the request was validated:
 * it calls `next()` for the handler's response (errors the handler throws as ApiError arrive as
 * their problem response) and may return another. Idempotency is one.
 *
 * @example
 * const timing: RouteInterceptor = async (ctx, next) => {
 *   const res = await next();
 *   res.headers.set("Server-Timing", "app");
 *   return res;
 * };
 */
export type RouteInterceptor = (ctx: RouteContext, next: () => Promise<Response>) => Promise<Response>;

/**
 * What a handler may return: a ready Response, or a value sent as JSON with status 200.
 *
 * @example
 * const r: HandlerResult = { status: "ok" };
 */
export type HandlerResult = Response | Record<string, unknown> | unknown[];

/**
 * One route of the API: method, path below the base path, its schemas and its handler. The same
 * object feeds the router and the OpenAPI document, so the two cannot drift.
 *
 * @example
 * const ping = defineRoute({
 *   method: "GET", path: "/ping", operationId: "ping", summary: "Connectivity check", auth: "optional",
 *   responses: { 200: { description: "Pong", schema: PingResponseSchema } },
 *   handle: (ctx) => ({ status: "ok", time: ctx.now().toISOString(), authenticated: false }),
 * });
 */
export interface RouteDefinition<
  BodyS extends z.ZodType | undefined = z.ZodType | undefined,
  QueryS extends z.ZodType | undefined = z.ZodType | undefined,
  ParamsS extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: RouteMethod;
  /** Path below the base path, with `:name` parameters: `/orders/:orderId`. */
  path: string;
  /**
   * The path is at the server's root instead of below the base path: `/healthz` beside `/api/v1`
   * (decision server-health-endpoints). Such a route gets no CORS headers.
   */
  root?: boolean;
  /**
   * `false` leaves the route out of the OpenAPI document: a web page (the API reference, the tool
   * pages) is not an operation of the API an integrator calls (decision pages-api-reference).
   */
  openapi?: false;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  auth: RouteAuth;
  request?: {
    /** JSON body schema; the body is read as JSON (415, 400, 413) only when this is set. */
    body?: BodyS;
    /** Whether an absent body is allowed (validated as `undefined`). */
    bodyOptional?: boolean;
    /**
     * Whether the OpenAPI document marks the body required; default the opposite of
     * `bodyOptional`. A body the contract requires may still be read when absent, so that the
     * answer names the missing fields (422) instead of the media type (decision
     * orders-control-requests).
     */
    documentBodyRequired?: boolean;
    /**
     * `"handler"`: the handler validates the body itself (from `ctx.rawBody`, also in `ctx.body`),
     * so `body` only documents it and is not run on the request: a body is parsed once (the order
     * engine validates an order with every violation at once; issue 21, item 2).
     */
    bodyValidatedBy?: "handler";
    /** Largest body in bytes; default 40 MB (spec section Limits). */
    maxBodyBytes?: number;
    /**
     * Bytes of the body budget one body byte takes (decision server-body-budget); default 1. A body
     * whose base64 attachments are decoded takes 1.75: the text and the 3/4 of it they decode to.
     */
    bodyBudgetWeight?: number;
    query?: QueryS;
    params?: ParamsS;
    /** Request headers, documented by name. */
    headers?: Record<string, { description: string; required?: boolean }>;
    /** An example body for the OpenAPI document (or a function that makes it). */
    example?: unknown;
  };
  responses: Record<number, RouteResponse>;
  guards?: RouteGuard[];
  /** Run around the handler, outermost first, once the request is valid (see {@link RouteInterceptor}). */
  interceptors?: RouteInterceptor[];
  handle: (
    ctx: RouteContext<
      BodyS extends z.ZodType ? z.output<BodyS> : undefined,
      QueryS extends z.ZodType ? z.output<QueryS> : Record<string, string>,
      ParamsS extends z.ZodType ? z.output<ParamsS> : Record<string, string>
    >,
  ) => HandlerResult | Promise<HandlerResult>;
}

/**
 * A capability of the API: its routes and its part of the OpenAPI document.
 *
 * @example
 * const plugin: ApiPlugin = { name: "ping", routes: [pingRoute], tags: [{ name: "meta", description: "Service" }] };
 */
export interface ApiPlugin {
  name: string;
  routes: RouteDefinition[];
  /** OpenAPI tags this plugin introduces. */
  tags?: { name: string; description: string }[];
}

/**
 * Declares a route with its types inferred from its schemas.
 *
 * @example
 * const route = defineRoute({ method: "GET", path: "/hello", operationId: "hello", summary: "Hi", auth: "none",
 *   responses: { 200: { description: "Hi" } }, handle: () => ({ hello: "world" }) });
 */
export function defineRoute<
  BodyS extends z.ZodType | undefined = undefined,
  QueryS extends z.ZodType | undefined = undefined,
  ParamsS extends z.ZodType | undefined = undefined,
>(route: RouteDefinition<BodyS, QueryS, ParamsS>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

/**
 * Declares a plugin. Identity at run time; it exists for type checking and readability.
 *
 * @example
 * export const helloPlugin = () => definePlugin({ name: "hello", routes: [route] });
 */
export function definePlugin(plugin: ApiPlugin): ApiPlugin {
  return plugin;
}

/**
 * A JSON response with the given status and headers.
 *
 * @example
 * return json({ id: "ord_0123456789abcdef" }, { status: 201 });
 */
export function json(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
  // srvx's FastResponse is a plain Response off Node and skips building one on Node's HTTP path.
  const status = init.status ?? 200;
  return new FastResponse(JSON.stringify(body), { status, statusText: statusTitle(status), headers });
}
