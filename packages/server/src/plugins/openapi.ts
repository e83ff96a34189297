import { z } from "zod";
import { type ApiPlugin, definePlugin, defineRoute, json } from "../plugin.js";

// The document's outline, so its answer has a schema (and an example) like every other one.
const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string().describe("The OpenAPI version, 3.1.0."),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document (only its outline is described)." });

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
        responses: { 200: { description: "The OpenAPI 3.1 document.", schema: OpenApiDocumentSchema } },
        handle: () => json(document(), { headers: { "cache-control": "public, max-age=300" } }),
      }),
    ],
  });
}
