import type { CaseSystem, IncassoStore, Logger, OrderEngineOptions, OrderHooks } from "@incasso/core";
import type { DocumentChecker, PdfEngine, TitleWriter } from "@incasso/pdf-guard";
import type { Authenticate } from "./authenticate.js";
import type { CompletedRequest } from "./completed-request.js";
import type { CorsOptions } from "./cors.js";
import type { IdempotencySettings } from "./idempotency.js";
import type { OpenApiDocument } from "./openapi.js";
import type { ApiPlugin, RouteDefinition, RouteGuard } from "./plugin.js";
import type { HealthOptions } from "./plugins/health.js";
import type { RolRouterPluginOptions } from "./plugins/rol-router.js";
import type { WikPluginOptions } from "./plugins/wik.js";
import type { RateLimiter } from "./rate-limit.js";

// The options and the result of createApi (create-api.ts), apart from the function that builds it.

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
  /**
   * Who calls (decision server-pluggable-authentication): a function from the request to a
   * principal, or undefined for nobody (401 on a route that needs a caller). Default: the Bearer
   * API keys of the store (`apiKeyAuthentication(store)`), which the function gets as
   * `helpers.apiKey()` to accept them beside its own credentials.
   */
  authenticate?: Authenticate;
  /**
   * The OpenAPI security schemes of `authenticate`, by name, each an alternative for the routes
   * that need a caller (OpenAPI 3.1 §4.8.27). Default `{ bearerAuth: API_KEY_SECURITY_SCHEME }`;
   * a host that also accepts the keys lists that one beside its own.
   */
  securitySchemes?: Record<string, Record<string, unknown>>;
  /**
   * The host's order rules and handlers (decision orders-host-hooks): rules run after an order or
   * control request is validated and before it is placed, and may refuse it with a code of the
   * host's own or add warnings; handlers run after it is stored, off the request's path.
   */
  orderHooks?: OrderHooks | readonly OrderHooks[];
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
  /**
   * The Idempotency-Key records of POST /orders, the control requests and POST /creditors
   * (decision idempotency-lease-setting): `leaseSeconds`, how long a claim holds without renewal
   * (whole seconds from 5 to 3600, default 30; out of bounds, createApi throws a RangeError), and
   * `retentionSeconds`, how long a response is kept (default and minimum 24 hours). The lease is
   * renewed every third while a request runs, so only a crashed process lets it lapse: a shorter
   * one lets the retries after a crash proceed sooner, for more renewals.
   */
  idempotency?: IdempotencySettings;
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
  /** The generated OpenAPI 3.1 document. */
  openapi(): OpenApiDocument;
}
