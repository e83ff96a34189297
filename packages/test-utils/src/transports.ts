import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpRequest, InvocationContext } from "@azure/functions";
import { createAzureFunctionsHandler } from "@incasso/azure-functions";
import { incassoExpress } from "@incasso/express";
import { incassoFastify, incassoFrameworkErrors } from "@incasso/fastify";
import { createNodeServer, type IncassoApi } from "@incasso/server";
import express from "express";
import Fastify from "fastify";

/**
 * A running transport: send a request to a path below the API's base path and get the response.
 *
 * @example
 * const res = await running.request("/ping");
 */
export interface RunningTransport {
  /** Sends a request for `path` (below the base path, with query) exactly as a client would. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Host and port for raw-socket tests; absent for in-process transports. */
  address?: { host: string; port: number; prefix: string };
  close(): Promise<void>;
}

/**
 * A way to serve the API: in-process, node:http, Express, Fastify or Azure Functions.
 *
 * @example
 * for (const t of transports) { const running = await t.start(api); ... }
 */
export interface Transport {
  name: string;
  start(api: IncassoApi): Promise<RunningTransport>;
}

async function listenOn(server: Server, prefix: string): Promise<RunningTransport> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: { host: "127.0.0.1", port, prefix },
    request: (path, init) => fetch(`http://127.0.0.1:${port}${prefix}${path}`, init),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `api.fetch` called directly, as a host with a fetch-style runtime does. */
export const inProcessTransport: Transport = {
  name: "in-process fetch",
  async start(api) {
    return {
      request: (path, init) => api.fetch(new Request(`http://localhost${api.basePath}${path}`, init)),
      close: async () => {},
    };
  },
};

/** The reference server: the API on node:http. */
export const nodeHttpTransport: Transport = {
  name: "node:http",
  start: (api) => listenOn(createNodeServer(api), api.basePath),
};

/** Express 5 with the API mounted under a prefix of its own, beside host routes. */
export const expressTransport: Transport = {
  name: "express",
  async start(api) {
    const app = express();
    app.get("/host/health", (_req, res) => {
      res.json({ host: true });
    });
    app.use("/mounted/v1", incassoExpress(api));
    app.use(express.json());
    const { createServer } = await import("node:http");
    return listenOn(createServer(app), "/mounted/v1");
  },
};

/** Fastify 5 with the API registered as a plugin under a prefix, beside a host hook. */
export const fastifyTransport: Transport = {
  name: "fastify",
  async start(api) {
    const app = Fastify({ frameworkErrors: incassoFrameworkErrors });
    app.addHook("onSend", async (_request, reply) => {
      reply.header("x-host-hook", "onSend");
    });
    await app.register(incassoFastify, { api, prefix: "/mounted/v1" });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    return {
      address: { host: "127.0.0.1", port, prefix: "/mounted/v1" },
      request: (path, init) => fetch(`http://127.0.0.1:${port}/mounted/v1${path}`, init),
      close: () => app.close(),
    };
  },
};

/** The Azure Functions v4 handler, driven through the library's own HttpRequest and InvocationContext. */
export const azureFunctionsTransport: Transport = {
  name: "azure functions",
  async start(api) {
    const handler = createAzureFunctionsHandler(api, { routePrefix: "api" });
    return {
      async request(path, init = {}) {
        const headers: Record<string, string> = {};
        new Headers(init.headers).forEach((v, k) => {
          headers[k] = v;
        });
        const body = init.body;
        const req = new HttpRequest({
          url: `http://localhost:7071/api${path}`,
          method: (init.method ?? "GET") as never,
          headers,
          ...(body !== undefined && body !== null
            ? {
                body: {
                  bytes: typeof body === "string" ? new TextEncoder().encode(body) : (body as Uint8Array),
                },
              }
            : {}),
        });
        const result = await handler(req, new InvocationContext({ functionName: "incasso" }));
        const out = result as { status?: number; headers?: Record<string, string>; body?: Uint8Array };
        return new Response(
          out.body && out.body.byteLength > 0 ? (out.body as Uint8Array<ArrayBuffer>) : null,
          {
            status: out.status ?? 200,
            headers: out.headers ?? {},
          },
        );
      },
      close: async () => {},
    };
  },
};

/** Every transport the API must behave identically on. */
export const transports: Transport[] = [
  inProcessTransport,
  nodeHttpTransport,
  expressTransport,
  fastifyTransport,
  azureFunctionsTransport,
];
