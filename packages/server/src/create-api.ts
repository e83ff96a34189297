import type { Logger } from "@incasso/core";
import type { CreateApiOptions, IncassoApi, PluginEnvironment } from "./api-options.js";
import { createBodyBudget } from "./body-budget.js";
import { consoleLogger } from "./console-logger.js";
import { corsPolicy } from "./cors.js";
import { hostCodes } from "./host-codes.js";
import { anonymousPing } from "./internal/anonymous-ping.js";
import { apiDocument } from "./internal/api-document.js";
import { apiPlugins } from "./internal/api-plugins.js";
import { createErrorFunnel } from "./internal/error-funnel.js";
import { routeContextMaker } from "./internal/request-facts.js";
import { createRoutePipeline } from "./internal/route-pipeline.js";
import { createRouter } from "./internal/router.js";
import { createRequestEntry } from "./internal/serve-request.js";
import { assertKernelOptions } from "./kernel-options.js";
import type { OpenApiDocument } from "./openapi.js";
import type { RouteDefinition } from "./plugin.js";
import { MemoryRateLimiter } from "./rate-limit.js";
import { StoreRateLimiter } from "./store-rate-limiter.js";

// The options and the result of createApi live in api-options.ts; they are exported here as before.
export type {
  CreateApiOptions,
  IncassoApi,
  PluginEnvironment,
  PluginFactory,
  RequestContext,
} from "./api-options.js";
// The one logger shape of incasso (@incasso/core), under the name this module always exported.
export type { Logger };

function normaliseBasePath(basePath: string): string {
  return `/${basePath}`.replace(/\/+/g, "/").replace(/\/$/, "");
}

/**
 * Creates the API: an h3 app assembled from plugins, with problem+json errors, 404 and 405 with
 * `Allow`, and the OpenAPI document generated from the same route table. This is the composition
 * root: the parts are made in internal/ (route pipeline, router, error funnel, 405/OPTIONS/HEAD,
 * request entry) and joined here.
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
  // The hooks of `orderHooks` and of the engine options (`orders.hooks`) alike.
  const codes = hostCodes(options.orders === false ? undefined : options.orders?.hooks, options.orderHooks);
  if (options.securitySchemes !== undefined && Object.keys(options.securitySchemes).length === 0) {
    // An empty list would document the protected routes as open to anyone (OpenAPI 3.1 §4.8.10).
    throw new TypeError(
      "createApi: securitySchemes needs at least one scheme; leave it out for the API keys'.",
    );
  }
  const cors = corsPolicy(options.cors);
  const basePath = normaliseBasePath(options.basePath ?? "/api/v1");
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? consoleLogger;
  const bodyBudget =
    options.bodyBudgetBytes === false ? undefined : createBodyBudget(options.bodyBudgetBytes);
  const globalGuards = options.guards ?? [];
  const store = options.publicOnly ? undefined : options.store;
  const rateLimiter = options.rateLimiter ?? (store ? new StoreRateLimiter(store) : new MemoryRateLimiter());
  const env: PluginEnvironment = { store, rateLimiter, logger, now };

  let document: OpenApiDocument | undefined;
  const openapi = (): OpenApiDocument => {
    document ??= apiDocument({
      routes,
      plugins,
      basePath,
      publicUrl: options.publicUrl,
      securitySchemes: options.securitySchemes,
      hostCodes: codes,
    });
    return document;
  };
  const plugins = apiPlugins(options, env, openapi);
  const routes = plugins.flatMap((p) => p.routes);
  // Where the router finds a route: below the base path, or at the root for probes.
  const fullPath = (route: RouteDefinition) => (route.root ? route.path : basePath + route.path);
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${fullPath(r)}`;
    if (seen.has(key)) throw new Error(`Two plugins declare ${r.method} ${r.path}.`);
    seen.add(key);
  }

  const { finish, failed } = createErrorFunnel(logger);
  const contextFor = routeContextMaker(now);
  const runRoute = createRoutePipeline({
    store,
    authenticate: options.authenticate,
    globalGuards,
    bodyBudget,
    finish,
    fullPath,
  });
  const app = createRouter({ routes, fullPath, cors, finish, contextFor, runRoute });
  // GET /ping without a key answered before the router (internal/anonymous-ping.ts), unless global
  // guards must see every request first, or a host's own authentication may find a caller in a
  // request without an Authorization header.
  const ping =
    globalGuards.length === 0 && options.authenticate === undefined
      ? anonymousPing({
          path: `${basePath}/ping`,
          cors: cors.enabled,
          ...(options.now ? { now: options.now } : {}),
        })
      : undefined;
  const { fetch } = createRequestEntry({ app, failed, logger, ping, onResponse: options.onResponse });
  return { basePath, routes, fetch, openapi };
}
