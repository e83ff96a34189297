import {
  createRolRouter,
  type RolRouterOptions,
  type RolRouterRequest,
  RolRouterRequestSchema,
  RolRouterResultSchema,
} from "@incasso/rol-router";
import { EXAMPLE_DATE, OPERATION_EXAMPLES } from "../openapi-examples.js";
import { type ApiPlugin, definePlugin, defineRoute } from "../plugin.js";
import { RATE_LIMIT_HEADERS } from "../rate-limit.js";
import { type ToolRateLimitOptions, toolRateLimit } from "./tool-limits.js";

/**
 * Options of POST /tools/rol-router (`createApi({ tools: { rolRouter } })`): the per-IP limit,
 * and the router's own options (a host's dataset or overrides to fill gaps, planning thresholds).
 *
 * @example
 * createApi({ publicOnly: true, tools: { rolRouter: { router: { overrides: myOverrides }, rateLimit: { perMinute: 120 } } } });
 */
export interface RolRouterPluginOptions {
  rateLimit?: ToolRateLimitOptions;
  router?: RolRouterOptions;
}

const rolRouterExample = OPERATION_EXAMPLES.lookupRolRouter?.request;

/**
 * POST /tools/rol-router: the public court and hearing-day lookup (spec "POST /tools/rol-router"),
 * answered by @incasso/rol-router with today's date from the API's clock. Every answered lookup is
 * 200, whatever its `status` (docs/decisions/rol-router-http-status.md).
 *
 * @example
 * const api = createApi({ publicOnly: true }); // the court lookup is built in
 */
export function rolRouterPlugin(options: RolRouterPluginOptions = {}): ApiPlugin {
  // Built once: the place index and the host's dataset are validated at start-up, not per request.
  const router = createRolRouter(options.router);
  return definePlugin({
    name: "rol-router",
    tags: [{ name: "tools", description: "Public calculation tools; no key needed" }],
    routes: [
      defineRoute({
        method: "POST",
        path: "/tools/rol-router",
        operationId: "lookupRolRouter",
        summary: "Court, kanton location and hearing days for a defendant's place of residence",
        description:
          "Indicative only. Concerns the defendant's place of residence; special jurisdiction rules, forum " +
          "clauses and defendants without a known Dutch residence are outside its scope. `status` tells whether " +
          "the answer is complete (`ok`), needs a `gemeente` or `provincie` (`ambiguous`), did not recognise the " +
          "place (`not_found`) or lacks hearing data (`incomplete`).",
        tags: ["tools"],
        auth: "none",
        request: { body: RolRouterRequestSchema, maxBodyBytes: 64 * 1024, example: rolRouterExample },
        responses: {
          200: {
            description: "The lookup result, for every result status.",
            schema: RolRouterResultSchema,
            headers: RATE_LIMIT_HEADERS,
            // The router's own answer to the example, so the example cannot drift from it.
            example: () => router.lookup(rolRouterExample as RolRouterRequest, { today: EXAMPLE_DATE }),
          },
          400: { description: "Empty body or invalid JSON." },
          413: { description: "Body too large." },
          415: { description: "Content-Type is not application/json." },
          422: { description: "Invalid fields; see errors[]." },
          429: { description: "Rate limit per IP reached.", headers: RATE_LIMIT_HEADERS },
        },
        guards: [toolRateLimit("rol-router", options.rateLimit)],
        // A refused request (`invalid_request`) is a 422 through the API's error mapping (toApiError).
        handle: (ctx) => router.lookup(ctx.body, { today: ctx.now() }),
      }),
    ],
  });
}
