import { createAzureFunctionsHandler } from "@incasso/azure-functions";

/** The Functions host's route prefix, as host.json sets it: the API lives under /api/v1. */
export const ROUTE_PREFIX = "api/v1";

/**
 * The HTTP trigger's handler that serves every route of the API: what
 * `registerIncassoFunction(app, api, { routePrefix })` registers in src/functions/incasso.mjs.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @param {{ routePrefix?: string }} [options]
 */
export function createHost(api, options = {}) {
  return createAzureFunctionsHandler(api, { routePrefix: options.routePrefix ?? ROUTE_PREFIX });
}
