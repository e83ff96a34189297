// One server per process for host-cpu.bench.ts: an example host (examples/NAME/app.mjs, createHost)
// or the bare reference of its framework, serving GET /ping or POST /orders. Prints one JSON line,
// `{"port": …, "key": …}`, once listening.
//
// Usage: host-target.ts TARGET ping|orders   (orders: DATABASE_URL and BENCH_SCHEMA set)
//
// The bare references (what the host's ratio is taken against):
// - ping: the framework answers the route itself with a fixed JSON body, none of the API's code;
// - orders: the framework's own route reads the body and hands a web Request built from it to the
//   same kernel (`api.fetch`), the plainest bridge a host could write; the kernel's order work and
//   the PostgreSQL client are then on both sides, and the ratio shows what each host's transport
//   costs beside that bridge.
// The Express and Fastify references keep the example host's own routes and hook (a health route,
// a JSON route, Fastify's onSend hook), with the bare route in the API's place.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpHandler, HttpMethod, HttpResponseInit } from "@azure/functions";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createApi, type IncassoApi } from "@incasso/server";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { H3 } from "h3";
import { FastResponse, serve } from "srvx";
import { toNodeHandler } from "srvx/node";

const target = process.argv[2] ?? "";
const route = process.argv[3] === "orders" ? "orders" : "ping";
const silent = { info() {}, warn() {}, error: console.error };
const pingBody = JSON.stringify({ status: "ok", time: new Date().toISOString(), authenticated: false });
const jsonType = "application/json; charset=utf-8";

let key = "";
async function makeApi(): Promise<IncassoApi> {
  if (route === "ping") return createApi({ publicOnly: true, logger: silent });
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("DATABASE_URL is not set");
  // A schema of its own per server process: every measurement starts on empty tables. The store's
  // and the built-in case system's migrations, as createIncasso applies them.
  const store = await openCaseSystemStore({ databaseUrl, schema: process.env.BENCH_SCHEMA ?? "public" });
  const issued = await issueApiKey(store, {
    organisation: `Bench ${target}`,
    mode: "live",
    perMinute: 1_000_000,
    perDay: 1_000_000,
  });
  key = issued.key;
  return createApi({
    store,
    caseSystem: createBuiltInCaseSystem({ store }),
    logger: silent,
    apiRateLimit: { perMinute: 1_000_000_000 },
  });
}

/** A web Request for the kernel from what a framework hands its route: URL, method, node headers, body. */
function webRequest(
  url: string,
  method: string,
  headers: IncomingHttpHeaders,
  body: Uint8Array<ArrayBuffer>,
): Request {
  const h = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
  }
  return new Request(url, { method, headers: h, body });
}

function bareH3(api: IncassoApi | undefined): H3 {
  const app = new H3();
  if (api === undefined) {
    app.get("/api/v1/ping", () => new FastResponse(pingBody, { headers: { "content-type": jsonType } }));
  } else {
    app.post("/api/v1/orders", async (event) => {
      const body = new Uint8Array(await event.req.arrayBuffer());
      return api.fetch(new Request(event.req.url, { method: "POST", headers: event.req.headers, body }));
    });
  }
  return app;
}

// The example Express host's own routes, with the bare route where the API is mounted.
function bareExpress(api: IncassoApi | undefined) {
  const app = express();
  app.get("/host/health", (_req, res) => {
    res.json({ host: true });
  });
  if (api === undefined) {
    app.get("/api/v1/ping", (_req, res) => {
      res.json(JSON.parse(pingBody));
    });
  } else {
    app.post("/api/v1/orders", express.raw({ type: "*/*", limit: "50mb" }), async (req, res) => {
      const url = `http://${req.headers.host ?? "localhost"}${req.originalUrl}`;
      const response = await api.fetch(
        webRequest(url, req.method, req.headers, req.body as Uint8Array<ArrayBuffer>),
      );
      res.status(response.status);
      response.headers.forEach((value, name) => {
        res.setHeader(name, value);
      });
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  }
  app.use(express.json());
  app.post("/internal/notes", (req, res) => {
    res.status(201).json({ saved: req.body });
  });
  return app;
}

// The example Fastify host's own hook and routes, with the bare route where the API is registered.
async function bareFastify(api: IncassoApi | undefined): Promise<FastifyInstance> {
  const app = Fastify();
  app.addHook("onSend", async (_request, reply) => {
    reply.header("x-host-hook", "onSend");
  });
  app.get("/host/health", async () => ({ host: true }));
  app.post("/internal/notes", async (request, reply) => reply.code(201).send({ saved: request.body }));
  if (api === undefined) {
    app.get("/api/v1/ping", async () => JSON.parse(pingBody));
  } else {
    await app.register(async (scope) => {
      // The body as bytes for the kernel, in this scope only; the host's JSON parser stays outside.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 50 * 1024 * 1024 }, (_r, body, done) =>
        done(null, body),
      );
      scope.post("/api/v1/orders", async (request, reply) => {
        const url = `http://${request.headers.host ?? "localhost"}${request.url}`;
        const response = await api.fetch(
          webRequest(url, request.method, request.headers, request.body as Uint8Array<ArrayBuffer>),
        );
        reply.code(response.status);
        response.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        return reply.send(Buffer.from(await response.arrayBuffer()));
      });
    });
  }
  return app;
}

// A bare Functions handler: the fixed ping answer, or a Request built from the body for the kernel.
function bareAzure(api: IncassoApi | undefined): HttpHandler {
  if (api === undefined) {
    return async () => ({
      status: 200,
      headers: { "content-type": jsonType },
      body: new TextEncoder().encode(pingBody),
    });
  }
  return async (request) => {
    const body = new Uint8Array(await request.arrayBuffer());
    const headers = new Headers();
    request.headers.forEach((value, name) => {
      headers.append(name, value);
    });
    const response = await api.fetch(new Request(request.url, { method: request.method, headers, body }));
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    return { status: response.status, headers: out, body: new Uint8Array(await response.arrayBuffer()) };
  };
}

// The runner of examples/azure-functions-app/server.mjs: each node request becomes the library's
// HttpRequest, as the Functions host hands it to the trigger; host and reference share it.
async function azureRunner(handler: HttpHandler) {
  // Loaded here, for the Azure targets only; a CommonJS package, whose named exports tsx's ESM
  // loader does not see.
  const functions = await import("@azure/functions");
  const { HttpRequest, InvocationContext } =
    (functions as unknown as { default?: typeof functions }).default ?? functions;
  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : `${value}`,
      ]),
    );
    const request = new HttpRequest({
      url: `http://${req.headers.host ?? "localhost"}${req.url}`,
      method: req.method as HttpMethod,
      headers: { ...headers, "x-forwarded-for": req.socket.remoteAddress ?? "" },
      ...(body.byteLength > 0 ? { body: { bytes: body } } : {}),
    });
    const answer = (await handler(
      request,
      new InvocationContext({ functionName: "incasso" }),
    )) as HttpResponseInit;
    res.writeHead(answer.status ?? 200, (answer.headers ?? {}) as Record<string, string>);
    res.end(answer.body ? Buffer.from(answer.body as Uint8Array) : undefined);
  });
}

/** An example host's app.mjs; imported by URL, as the examples are JavaScript without declarations. */
function example<T>(name: string): Promise<{ createHost(api: IncassoApi): T }> {
  return import(new URL(`../../examples/${name}/app.mjs`, import.meta.url).href);
}

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

async function start(): Promise<number> {
  const bare = target.startsWith("bare-") || target.startsWith("h3-");
  const api = await makeApi();
  const kernel = bare && route === "ping" ? undefined : api;
  switch (target) {
    case "standalone": {
      const { createHost } = await example<Server>("standalone-server");
      return listen(createHost(api));
    }
    case "h3-node":
      return listen(createServer(toNodeHandler(bareH3(kernel).fetch) as never));
    case "fetch-runtime":
    case "h3-srvx": {
      const fetch =
        target === "h3-srvx"
          ? bareH3(kernel).fetch
          : (await example<{ fetch(request: Request): Promise<Response> }>("fetch-runtime")).createHost(api)
              .fetch;
      const server = serve({ fetch, port: 0, hostname: "127.0.0.1", silent: true });
      await server.ready();
      return Number(new URL(server.url as string).port);
    }
    case "express": {
      const { createHost } = await example<ReturnType<typeof createServer>>("express-host");
      return listen(createHost(api));
    }
    case "bare-express":
      return listen(createServer(bareExpress(kernel)));
    case "fastify":
    case "bare-fastify": {
      const app =
        target === "fastify"
          ? await (await example<Promise<FastifyInstance>>("fastify-host")).createHost(api)
          : await bareFastify(kernel);
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    case "azure": {
      const { createHost } = await example<HttpHandler>("azure-functions-app");
      return listen(await azureRunner(createHost(api)));
    }
    case "bare-azure":
      return listen(await azureRunner(bareAzure(kernel)));
    default:
      throw new Error(`unknown target ${target}`);
  }
}

console.log(JSON.stringify({ port: await start(), key }));
