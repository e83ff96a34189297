// One HTTP server per process for the ping benchmark, so the load generator never shares the
// event loop with the server it measures. Prints the port on stdout once listening.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { incassoExpress } from "@incasso/express";
import { incassoFastify } from "@incasso/fastify";
import { createApi, createNodeServer } from "@incasso/server";
import express from "express";
import Fastify from "fastify";

const target = process.argv[2];
const body = JSON.stringify({ status: "ok", time: new Date().toISOString(), authenticated: false });

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
      return listen(createNodeServer(createApi({ logger: { info() {}, warn() {}, error() {} } })));
    case "incasso-node-tools": {
      // Limits raised so the benchmark measures the work, not the 429 path.
      const rateLimit = { perMinute: 1_000_000_000 };
      return listen(createNodeServer(createApi({ tools: { wik: { rateLimit }, rolRouter: { rateLimit } } })));
    }
    case "bare-express": {
      const app = express();
      app.get("/api/v1/ping", (_req, res) => {
        res.json(JSON.parse(body));
      });
      return listen(createServer(app));
    }
    case "incasso-express": {
      const app = express();
      app.use("/api/v1", incassoExpress(createApi()));
      return listen(createServer(app));
    }
    case "bare-fastify": {
      const app = Fastify();
      app.get("/api/v1/ping", async () => JSON.parse(body));
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    case "incasso-fastify": {
      const app = Fastify();
      await app.register(incassoFastify, { api: createApi(), prefix: "/api/v1" });
      await app.listen({ port: 0, host: "127.0.0.1" });
      return (app.server.address() as AddressInfo).port;
    }
    default:
      throw new Error(`unknown target ${target}`);
  }
}

console.log(await start());
