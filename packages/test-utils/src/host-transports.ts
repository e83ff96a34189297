import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { IncassoApi } from "@incasso/server";
import { callAzureHandler } from "./internal/azure-request.js";
import type { RunningTransport, Transport } from "./transport-types.js";

// The transports of a plugin author's tests, mounted with the published adapters as a host mounts
// them: under a prefix of their own (`/mounted/v1`) where the framework allows, with the probes at
// the root. Express, Fastify and Azure Functions are imported when their transport starts, so a
// project without one of them can still run the others (the adapters are optional peer
// dependencies).

const PREFIX = "/mounted/v1";

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

/**
 * `api.fetch` called in the test's own process, as a fetch runtime (Workers, Deno, Bun) calls it.
 *
 * @example
 * const running = await fetchTransport.start(api);
 */
export const fetchTransport: Transport = {
  name: "fetch",
  async start(api: IncassoApi) {
    const call = async (url: string, init?: RequestInit) => api.fetch(new Request(url, init));
    return {
      request: (path, init) => call(`http://localhost${api.basePath}${path}`, init),
      requestRoot: (path, init) => call(`http://localhost${path}`, init),
      close: async () => {},
    };
  },
};

/**
 * The API's own node:http server (`createNodeServer` of `@incasso/server/node`) on a free port.
 *
 * @example
 * const running = await nodeServerTransport.start(api);
 */
export const nodeServerTransport: Transport = {
  name: "node:http",
  async start(api) {
    const { createNodeServer } = await import("@incasso/server/node");
    return listenOn(createNodeServer(api), api.basePath);
  },
};

/**
 * Express 5 with the API mounted by `incassoExpress` (`@incasso/express`) under `/mounted/v1`,
 * before any body parser, on a server with `answerHttpErrors`.
 *
 * @example
 * const running = await expressHostTransport.start(api);
 */
export const expressHostTransport: Transport = {
  name: "express",
  async start(api) {
    const [{ createServer }, adapter, { default: express }] = await Promise.all([
      import("node:http"),
      import("@incasso/express"),
      import("express"),
    ]);
    const app = express();
    app.use(adapter.incassoExpressRootRoutes(api));
    app.use(PREFIX, adapter.incassoExpress(api));
    return listenOn(adapter.answerHttpErrors(createServer(app)), PREFIX);
  },
};

/**
 * Fastify 5 with the API registered by `incassoFastify` (`@incasso/fastify`) under `/mounted/v1`.
 *
 * @example
 * const running = await fastifyHostTransport.start(api);
 */
export const fastifyHostTransport: Transport = {
  name: "fastify",
  async start(api) {
    const [adapter, { default: Fastify }] = await Promise.all([
      import("@incasso/fastify"),
      import("fastify"),
    ]);
    const app = Fastify();
    adapter.answerHttpErrors(app.server);
    await app.register(adapter.incassoFastifyRootRoutes, { api });
    await app.register(adapter.incassoFastify, { api, prefix: PREFIX });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    return {
      address: { host: "127.0.0.1", port, prefix: PREFIX },
      request: (path, init) => fetch(`http://127.0.0.1:${port}${PREFIX}${path}`, init),
      requestRoot: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
      close: () => app.close(),
    };
  },
};

/**
 * The Azure Functions v4 handler of `createAzureFunctionsHandler` (`@incasso/azure-functions`,
 * route prefix `api`), driven through `@azure/functions`' own HttpRequest and InvocationContext.
 *
 * @example
 * const running = await azureFunctionsHostTransport.start(api);
 */
export const azureFunctionsHostTransport: Transport = {
  name: "azure functions",
  async start(api) {
    const [adapter, azure] = await Promise.all([
      import("@incasso/azure-functions"),
      import("@azure/functions"),
    ]);
    const handler = adapter.createAzureFunctionsHandler(api, { routePrefix: "api" });
    return {
      request: (path, init) => callAzureHandler(handler, azure, path, init),
      close: async () => {},
    };
  },
};

/**
 * Every host a plugin's tests run on by default: fetch, node:http, Express, Fastify and Azure
 * Functions.
 *
 * @example
 * describePlugin("agency", { plugins, transports: hostTransports.filter((t) => t.name !== "azure functions") }, tests);
 */
export const hostTransports: readonly Transport[] = [
  fetchTransport,
  nodeServerTransport,
  expressHostTransport,
  fastifyHostTransport,
  azureFunctionsHostTransport,
];
