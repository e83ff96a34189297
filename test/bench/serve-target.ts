// One HTTP server per process for the ping benchmark, so the load generator never shares the
// event loop with the server it measures. Prints the port on stdout once listening.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { incassoExpress } from "@incasso/express";
import { incassoFastify } from "@incasso/fastify";
import { createApi } from "@incasso/server";
import { createNodeServer } from "@incasso/server/node";
import express from "express";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { H3 } from "h3";
import { FastResponse } from "srvx";
import { NodeRequest, toNodeHandler } from "srvx/node";

const target = process.argv[2];
const body = JSON.stringify({ status: "ok", time: new Date().toISOString(), authenticated: false });

// A bare h3 app with the same route and nothing of the API: what h3 and srvx alone cost, on
// node:http and behind a Fastify route, to tell their share of the gap from the API's own.
function bareH3(): H3 {
  const app = new H3();
  app.get(
    "/api/v1/ping",
    () => new FastResponse(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
  );
  return app;
}

async function start(): Promise<number> {
  const listen = async (server: ReturnType<typeof createServer>) => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return (server.address() as AddressInfo).port;
  };
  switch (target) {
    case "bare-node":
      return listen(
        createServer((_req, res) => {
          res.writeHead(200, { "content-type": "application/json" }).end(body);
        }),
      );
    case "incasso-node":
      return listen(
        createNodeServer(createApi({ publicOnly: true, logger: { info() {}, warn() {}, error() {} } })),
      );
    case "incasso-node-tools": {
      // Limits raised so the benchmark measures the work, not the 429 path.
      const rateLimit = { perMinute: 1_000_000_000 };
      return listen(
        createNodeServer(
          createApi({ publicOnly: true, tools: { wik: { rateLimit }, rolRouter: { rateLimit } } }),
        ),
      );
    }
    case "h3-node":
      return listen(createServer(toNodeHandler(bareH3().fetch) as never));
    case "bare-express": {
      const app = express();
      app.get("/api/v1/ping", (_req, res) => {
        res.json(JSON.parse(body));
      });
      return listen(createServer(app));
    }
    case "incasso-express": {
      const app = express();
      app.use("/api/v1", incassoExpress(createApi({ publicOnly: true })));
      return listen(createServer(app));
    }
    case "bare-fastify": {
      const app = Fastify();
      app.get("/api/v1/ping", async () => JSON.parse(body));
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    case "h3-fastify": {
      const h3 = bareH3();
      const app = Fastify();
      app.all("/api/v1/*", async (request: FastifyRequest, reply: FastifyReply) => {
        const response = (await h3.fetch(new NodeRequest({ req: request.raw }) as Request)) as Response & {
          _toNodeResponse(): { status: number; headers: string[]; body: string };
        };
        const fast = response._toNodeResponse();
        reply.code(fast.status);
        for (let i = 0; i < fast.headers.length; i += 2)
          reply.header(fast.headers[i] as string, fast.headers[i + 1]);
        return reply.send(fast.body);
      });
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    case "incasso-fastify": {
      const app = Fastify();
      await app.register(incassoFastify, { api: createApi({ publicOnly: true }), prefix: "/api/v1" });
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    default:
      throw new Error(`unknown target ${target}`);
  }
}

console.log(await start());
