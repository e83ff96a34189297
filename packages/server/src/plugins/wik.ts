import { calculateWik, WikCalculationSchema, type WikRequest, WikRequestSchema } from "@incasso/wik";
import { EXAMPLE_DATE, OPERATION_EXAMPLES } from "../openapi-examples.js";
import { type ApiPlugin, definePlugin, defineRoute } from "../plugin.js";
import { RATE_LIMIT_HEADERS } from "../rate-limit.js";
import { type ToolRateLimitOptions, toolRateLimit } from "./tool-limits.js";

/**
 * Options of POST /tools/wik (`createApi({ tools: { wik } })`).
 *
 * @example
 * createApi({ publicOnly: true, tools: { wik: { rateLimit: { perMinute: 120 } } } });
 */
export interface WikPluginOptions {
  rateLimit?: ToolRateLimitOptions;
}

const wikExample = OPERATION_EXAMPLES.calculateWik?.request;

/**
 * POST /tools/wik: the public collection-cost and interest calculator (spec "POST /tools/wik"),
 * computed by @incasso/wik with today's date from the API's clock.
 *
 * @example
 * const api = createApi({ publicOnly: true }); // the WIK tool is built in
 * await api.fetch(new Request("http://x/api/v1/tools/wik", { method: "POST", headers: { "content-type": "application/json" }, body: '{"amount_cents":125000}' }));
 */
export function wikPlugin(options: WikPluginOptions = {}): ApiPlugin {
  return definePlugin({
    name: "wik",
    tags: [{ name: "tools", description: "Public calculation tools; no key needed" }],
    routes: [
      defineRoute({
        method: "POST",
        path: "/tools/wik",
        operationId: "calculateWik",
        summary: "Statutory collection costs and interest",
        description:
          "Collection costs on the scale of the Besluit vergoeding voor buitengerechtelijke incassokosten and " +
          "statutory interest (art. 6:119 / 6:119a BW) up to today. Indicative; not legal advice; whether the " +
          "costs may lawfully be charged is not checked.",
        tags: ["tools"],
        auth: "none",
        request: { body: WikRequestSchema, maxBodyBytes: 64 * 1024, example: wikExample },
        responses: {
          200: {
            description: "The calculation.",
            schema: WikCalculationSchema,
            headers: RATE_LIMIT_HEADERS,
            // The calculator's own answer to the example, so the example cannot drift from it.
            example: () => calculateWik(wikExample as WikRequest, { today: EXAMPLE_DATE }),
          },
          400: { description: "Empty body or invalid JSON." },
          413: { description: "Body too large." },
          415: { description: "Content-Type is not application/json." },
          422: { description: "Invalid fields; see errors[]." },
          429: { description: "Rate limit per IP reached.", headers: RATE_LIMIT_HEADERS },
        },
        guards: [toolRateLimit("wik", options.rateLimit)],
        // After schema validation only range limits remain (a due date before the rate table, an
        // amount whose result overflows): the API's error mapping (toApiError) makes them 422 per field.
        handle: (ctx) => calculateWik(ctx.body, { today: ctx.now() }),
      }),
    ],
  });
}
