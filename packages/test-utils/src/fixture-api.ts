import { createHash, randomBytes } from "node:crypto";
import { createBuiltInCaseSystem } from "@incasso/case-system";
import { getPdfEngine } from "@incasso/pdf-guard/node";
import {
  type ApiPlugin,
  type CreateApiOptions,
  createApi,
  definePlugin,
  defineRoute,
  type IncassoApi,
  idempotency,
  json,
  type PluginFactory,
  RATE_LIMIT_HEADERS,
  requirePrincipal,
} from "@incasso/server";
import { ordersRateLimit } from "@incasso/server/internal";
import type { SqlStore } from "@incasso/store-sql";
import { z } from "zod";

/**
 * A test-only plugin: POST /__test/echo answers with the length and SHA-256 of the raw body bytes
 * it received, so transport tests can prove a host passed the body through untouched.
 *
 * @example
 * const api = fixtureApi(); // includes echoPlugin()
 */
export function echoPlugin(): ApiPlugin {
  return definePlugin({
    name: "test-echo",
    routes: [
      defineRoute({
        method: "POST",
        path: "/__test/echo",
        operationId: "testEcho",
        summary: "Test only: describe the raw body",
        auth: "none",
        responses: { 200: { description: "What arrived." } },
        handle: async (ctx) => {
          const bytes = new Uint8Array(await ctx.request.arrayBuffer());
          return {
            length: bytes.byteLength,
            sha256: createHash("sha256").update(bytes).digest("hex"),
            content_type: ctx.request.headers.get("content-type"),
            client_ip: ctx.clientIp ?? null,
          };
        },
      }),
    ],
  });
}

/**
 * How many times the handler of POST /__test/orders ran, per idempotency test; tests read it to
 * prove a replay did not run the handler again.
 */
export const testOrderExecutions = { count: 0 };

/**
 * A test-only stand-in for POST /orders until the order engine exists: POST /__test/orders with
 * exactly the machinery the real route will use (`ordersRateLimit` and `idempotency`). The body
 * `{ "delay_ms": n }` makes it slow, `{ "fail": 502 }` makes it fail, `{ "refuse": true }` makes it
 * answer 422; otherwise it answers 201 with a fresh id and the execution count.
 *
 * @example
 * const api = fixtureApi({ store }); // includes it when a store is given
 */
export const testOrdersPlugin: PluginFactory = (env) =>
  definePlugin({
    name: "test-orders",
    routes: [
      defineRoute({
        method: "POST",
        path: "/__test/orders",
        operationId: "testOrders",
        summary: "Test only: the POST /orders machinery without the order engine",
        auth: "required",
        request: {
          body: z.object({
            note: z.string().max(100).optional(),
            delay_ms: z.int().min(0).max(5000).optional(),
            fail: z.literal(502).optional(),
            refuse: z.boolean().optional(),
          }),
        },
        responses: {
          201: { description: "Done.", headers: RATE_LIMIT_HEADERS },
          401: { description: "No key." },
          409: { description: "Idempotency conflict or in progress." },
          422: { description: "Refused." },
          429: { description: "Rate limited.", headers: RATE_LIMIT_HEADERS },
          502: { description: "Upstream failed." },
        },
        guards: [ordersRateLimit({ limiter: env.rateLimiter })],
        interceptors: env.store ? [idempotency({ store: env.store })] : [],
        handle: async (ctx) => {
          const principal = requirePrincipal(ctx);
          testOrderExecutions.count++;
          const run = testOrderExecutions.count;
          if (ctx.body.delay_ms) await new Promise((r) => setTimeout(r, ctx.body.delay_ms));
          if (ctx.body.fail === 502) {
            return json(
              {
                type: "https://incasso.dev/problems/upstream_error",
                title: "Bad Gateway",
                status: 502,
                code: "upstream_error",
                detail: "test",
              },
              { status: 502, headers: { "content-type": "application/problem+json" } },
            );
          }
          if (ctx.body.refuse) {
            return json(
              {
                type: "https://incasso.dev/problems/refused",
                title: "Unprocessable Content",
                status: 422,
                code: "refused",
                detail: `run ${run}`,
              },
              { status: 422, headers: { "content-type": "application/problem+json" } },
            );
          }
          return json(
            {
              id: `ord_${randomBytes(8).toString("hex")}`,
              run,
              organisation: principal.organisationName,
              note: ctx.body.note ?? null,
            },
            { status: 201, headers: { location: "/api/v1/__test/orders/x" } },
          );
        },
      }),
    ],
  });

/**
 * The API the transport suites run against: the real API plus {@link echoPlugin} (and, with a
 * store, {@link testOrdersPlugin}), with a fixed clock.
 *
 * @example
 * const api = fixtureApi({ now: () => new Date("2026-01-02T03:04:05Z") });
 */
export function fixtureApi(options: CreateApiOptions = {}): IncassoApi {
  const store = options.store;
  const orderCases = options.orders === false ? undefined : options.orders?.caseSystem;
  return createApi({
    now: () => new Date("2026-11-21T10:00:00.000Z"),
    // Without a store, the API of the public endpoints only; with one, the built-in case system in
    // its database unless the test gives its own.
    ...(store === undefined
      ? { publicOnly: true }
      : options.orders === false || options.caseSystem || orderCases || !("database" in store)
        ? {}
        : { caseSystem: createBuiltInCaseSystem({ store: store as SqlStore }) }),
    // PDFs in worker threads, as createIncasso() runs them, so the time and memory limits hold.
    pdfEngine: getPdfEngine(),
    ...options,
    plugins: [...(options.plugins ?? []), echoPlugin(), ...(options.store ? [testOrdersPlugin] : [])],
  });
}
