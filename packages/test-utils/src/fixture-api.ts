import { createHash } from "node:crypto";
import {
  type ApiPlugin,
  type CreateApiOptions,
  createApi,
  definePlugin,
  defineRoute,
  type IncassoApi,
} from "@incasso/server";

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
 * The API the transport suites run against: the real API plus {@link echoPlugin}, with a fixed
 * clock.
 *
 * @example
 * const api = fixtureApi({ now: () => new Date("2026-01-02T03:04:05Z") });
 */
export function fixtureApi(options: CreateApiOptions = {}): IncassoApi {
  return createApi({
    now: () => new Date("2026-11-21T10:00:00.000Z"),
    ...options,
    plugins: [...(options.plugins ?? []), echoPlugin()],
  });
}
