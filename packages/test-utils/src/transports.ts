import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type HttpHandler, HttpRequest, InvocationContext } from "@azure/functions";
import type { IncassoApi } from "@incasso/server";
import type { FastifyInstance } from "fastify";
import { callAzureHandler } from "./internal/azure-request.js";
import type { RunningTransport, Transport } from "./transport-types.js";

export type { RunningTransport, Transport } from "./transport-types.js";

async function listenOn(server: Server, prefix: string): Promise<RunningTransport> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: { host: "127.0.0.1", port, prefix },
    request: (path, init) => fetch(`http://127.0.0.1:${port}${prefix}${path}`, init),
    requestRoot: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The transports are the runnable example hosts themselves (examples/*/app.mjs), so the whole
// conformance suite runs through exactly the code a newcomer copies. The examples are plain
// JavaScript without type declarations.
type ExampleHosts = {
  fetchRuntime: { createHost(api: IncassoApi): { fetch(request: Request): Response | Promise<Response> } };
  standalone: { createHost(api: IncassoApi): Server };
  express: { createHost(api: IncassoApi, options?: { prefix?: string }): Server };
  fastify: { createHost(api: IncassoApi, options?: { prefix?: string }): Promise<FastifyInstance> };
  azure: { createHost(api: IncassoApi, options?: { routePrefix?: string }): HttpHandler };
  ownCaseSystem: { createHost(api: IncassoApi): Server };
};

async function example<K extends keyof ExampleHosts>(name: K): Promise<ExampleHosts[K]> {
  const folder = {
    fetchRuntime: "fetch-runtime",
    standalone: "standalone-server",
    express: "express-host",
    fastify: "fastify-host",
    azure: "azure-functions-app",
    ownCaseSystem: "own-case-system",
  }[name];
  return (await import(
    new URL(`../../../examples/${folder}/app.mjs`, import.meta.url).href
  )) as ExampleHosts[K];
}

/** `api.fetch` behind a plain fetch handler, as a fetch-style runtime calls it (examples/fetch-runtime). */
export const inProcessTransport: Transport = {
  name: "fetch runtime",
  async start(api) {
    const host = (await example("fetchRuntime")).createHost(api);
    return {
      request: async (path, init) => host.fetch(new Request(`http://localhost${api.basePath}${path}`, init)),
      requestRoot: async (path, init) => host.fetch(new Request(`http://localhost${path}`, init)),
      close: async () => {},
    };
  },
};

/** The reference server: the API on node:http (examples/standalone-server). */
export const nodeHttpTransport: Transport = {
  name: "node:http",
  start: async (api) => listenOn((await example("standalone")).createHost(api), api.basePath),
};

/**
 * Express 5 with the API mounted under a prefix of its own, beside host routes, on the host's own
 * server with `answerHttpErrors` (examples/express-host).
 */
export const expressTransport: Transport = {
  name: "express",
  async start(api) {
    return listenOn((await example("express")).createHost(api, { prefix: "/mounted/v1" }), "/mounted/v1");
  },
};

/**
 * Fastify 5 with the API registered as a plugin under a prefix, beside a host hook, without the
 * `frameworkErrors` option, `answerHttpErrors` on `app.server` (examples/fastify-host).
 */
export const fastifyTransport: Transport = {
  name: "fastify",
  async start(api) {
    const app = await (await example("fastify")).createHost(api, { prefix: "/mounted/v1" });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    return {
      address: { host: "127.0.0.1", port, prefix: "/mounted/v1" },
      request: (path, init) => fetch(`http://127.0.0.1:${port}/mounted/v1${path}`, init),
      requestRoot: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
      close: () => app.close(),
    };
  },
};

/**
 * The Azure Functions v4 handler of examples/azure-functions-app, driven through the library's own
 * HttpRequest and InvocationContext.
 */
export const azureFunctionsTransport: Transport = {
  name: "azure functions",
  async start(api) {
    const handler = (await example("azure")).createHost(api, { routePrefix: "api" });
    return {
      request: (path, init) => callAzureHandler(handler, { HttpRequest, InvocationContext }, path, init),
      close: async () => {},
    };
  },
};

/**
 * The host of examples/own-case-system: the API on node:http, run beside an agency's own case
 * service. Here it serves whatever API the test made; test/http/own-case-system.test.ts gives it
 * the example's case system on that service.
 *
 * @example
 * const running = await ownCaseSystemTransport.start(api);
 */
export const ownCaseSystemTransport: Transport = {
  name: "own case system host",
  start: async (api) => listenOn((await example("ownCaseSystem")).createHost(api), api.basePath),
};

/** Every transport the API must behave identically on. */
export const transports: Transport[] = [
  inProcessTransport,
  nodeHttpTransport,
  expressTransport,
  fastifyTransport,
  azureFunctionsTransport,
  ownCaseSystemTransport,
];

/**
 * An API already served at `baseUrl` (its base path included, as a host prints it), by a process
 * of its own: another runtime (Bun, Deno, workerd) runs the example host, and the test sends it the
 * requests a client would. The API a test made is not used there.
 *
 * @example
 * const running = remoteTransport("http://127.0.0.1:3000/api/v1");
 * await running.request("/ping");
 */
export function remoteTransport(baseUrl: string): RunningTransport {
  const { protocol, hostname, port, pathname } = new URL(baseUrl);
  const origin = `${protocol}//${hostname}:${port}`;
  const prefix = pathname.replace(/\/$/, "");
  return {
    address: { host: hostname, port: Number(port), prefix },
    request: (path, init) => fetch(`${origin}${prefix}${path}`, init),
    requestRoot: (path, init) => fetch(`${origin}${path}`, init),
    close: async () => {},
  };
}
