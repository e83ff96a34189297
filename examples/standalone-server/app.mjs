import { createNodeServer } from "@incasso/server/node";

/**
 * The reference server's own transport: the API on node:http, nothing else.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @returns {import("node:http").Server}
 */
export function createHost(api) {
  return createNodeServer(api);
}
