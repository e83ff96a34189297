import { type ApiPlugin, definePlugin, defineRoute, json } from "../plugin.js";

/**
 * GET /openapi.json: the machine-readable interface description (spec section Other), generated
 * from the route table.
 *
 * @example
 * const plugin = openApiPlugin(() => api.openapi());
 */
export function openApiPlugin(document: () => unknown): ApiPlugin {
  return definePlugin({
    name: "openapi",
    routes: [
      defineRoute({
        method: "GET",
        path: "/openapi.json",
        operationId: "getOpenApi",
        summary: "The OpenAPI 3.1 description of this API",
        tags: ["service"],
        auth: "none",
        responses: { 200: { description: "The OpenAPI 3.1 document." } },
        handle: () => json(document(), { headers: { "cache-control": "public, max-age=300" } }),
      }),
    ],
  });
}
