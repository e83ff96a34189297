import { createOrderEngine, type OrderEngineOptions, type OrderHooks } from "@incasso/core";
import type { CreateApiOptions, PluginEnvironment } from "../api-options.js";
import type { OpenApiDocument } from "../openapi.js";
import type { ApiPlugin } from "../plugin.js";
import { creditorsPlugin } from "../plugins/creditors.js";
import { healthPlugin } from "../plugins/health.js";
import { openApiPlugin } from "../plugins/openapi.js";
import { ordersPlugin } from "../plugins/orders.js";
import { pingPlugin } from "../plugins/ping.js";
import { rolRouterPlugin } from "../plugins/rol-router.js";
import { wikPlugin } from "../plugins/wik.js";

// The hooks of createApi's `orderHooks` after those given with the engine options (`orders.hooks`).
function mergedHooks(
  api: OrderHooks | readonly OrderHooks[],
  engine: OrderHooks | readonly OrderHooks[] | undefined,
): OrderHooks[] {
  const list = (h: OrderHooks | readonly OrderHooks[] | undefined): OrderHooks[] =>
    h === undefined ? [] : Array.isArray(h) ? [...h] : [h as OrderHooks];
  return [...list(engine), ...list(api)];
}

/**
 * The API's plugins in order: the built-in ones each option leaves in (ping, the OpenAPI
 * document, health, the public tools, creditors and orders with a store), then the host's own,
 * a factory built from the API's environment.
 *
 * @example
 * const plugins = apiPlugins(options, env, () => document);
 */
export function apiPlugins(
  options: CreateApiOptions,
  env: PluginEnvironment,
  openapi: () => OpenApiDocument,
): ApiPlugin[] {
  const { store, rateLimiter, logger } = env;
  const tools = options.tools ?? {};
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
  return [
    pingPlugin(),
    openApiPlugin(openapi),
    ...(options.health === false ? [] : [healthPlugin(options.health, logger)]),
    ...(tools.wik === false ? [] : [wikPlugin(tools.wik)]),
    ...(tools.rolRouter === false ? [] : [rolRouterPlugin(tools.rolRouter)]),
    ...(store && options.creditors !== false
      ? [
          creditorsPlugin({
            store,
            rateLimiter,
            perMinute: options.apiRateLimit?.perMinute,
            logger,
            ...(options.idempotency ? { idempotency: options.idempotency } : {}),
          }),
        ]
      : []),
    ...(store && orderOptions && caseSystem
      ? [
          ordersPlugin({
            engine: createOrderEngine({
              ...orderOptions,
              store,
              caseSystem,
              ...(options.orderHooks ? { hooks: mergedHooks(options.orderHooks, orderOptions.hooks) } : {}),
              logger,
            }),
            rateLimiter,
            logger,
            ...(options.idempotency ? { idempotency: options.idempotency } : {}),
            ...(options.apiRateLimit?.perMinute ? { perMinute: options.apiRateLimit.perMinute } : {}),
          }),
        ]
      : []),
    ...(options.plugins ?? []).map((p) => (typeof p === "function" ? p(env) : p)),
  ];
}
