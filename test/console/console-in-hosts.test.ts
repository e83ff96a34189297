import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createIncasso } from "@incasso/app";
import { answerHttpErrors, incassoExpress, incassoExpressRootRoutes } from "@incasso/express";
import { incassoFastify, incassoFastifyRootRoutes } from "@incasso/fastify";
import type { IncassoApi } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";
import { newDataDir, sendOversizedBody } from "@incasso/test-utils";
import express from "express";
import Fastify from "fastify";
import { expect, it } from "vitest";

// The console in an embedding host, its forms included: posted as
// application/x-www-form-urlencoded, which neither Express nor Fastify leaves alone by itself.
// Express: the console's own mount (docs/operator.md, Console) and the root routes of the README's
// example, each with a urlencoded body parser behind it; Fastify: the root routes, as its README
// registers them.
type Host = { origin: string; port: number; close: () => Promise<void> };

const hosts: Record<string, (api: IncassoApi) => Promise<Host>> = {
  "Express, createNodeHandler at /console": (api) =>
    expressHost(api, (app) =>
      app.use(
        "/console",
        createNodeHandler(api, {
          rewriteUrl: (url) => `/console${url}`,
          clientIp: (req) => (req as { ip?: string }).ip,
        }),
      ),
    ),
  "Express, incassoExpressRootRoutes as the README's example": (api) =>
    expressHost(api, (app) => app.use(incassoExpressRootRoutes(api))),
  "Fastify, incassoFastifyRootRoutes as its README": async (api) => {
    const app = Fastify();
    await app.register(incassoFastifyRootRoutes, { api });
    await app.register(incassoFastify, { api, prefix: "/api/v1" });
    answerHttpErrors(app.server);
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    return { origin, port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  },
};

async function expressHost(api: IncassoApi, mount: (app: express.Express) => void): Promise<Host> {
  const app = express();
  mount(app);
  app.use("/api/v1", incassoExpress(api));
  // A body parser after both, as the README's example has one: the API reads its own bodies.
  app.use(express.urlencoded({ extended: false }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

it.for(Object.entries(hosts))(
  "serves the console's pages and forms in a host: %s",
  {
    timeout: 60_000,
  },
  async ([, start]) => {
    const dir = await newDataDir("incasso-console-host-");
    const incasso = await createIncasso(
      { dataDir: dir },
      {
        startLines: false,
        logger: { info() {}, warn() {}, error() {} },
        env: {},
        webhooks: false,
        letters: false,
        operatorEndpoint: false,
      },
    );
    const { origin, port, close } = await start(incasso.api);
    try {
      const form = await fetch(`${origin}/console/inloggen`);
      expect([form.status, form.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      const { credential } = await incasso.operations.createOperator({ name: "Anne", role: "admin" });
      const login = (value: string) =>
        fetch(`${origin}/console/inloggen`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ credential: value }),
        });
      expect((await login("not-a-credential")).status).toBe(401);
      const accepted = await login(credential);
      expect([accepted.status, accepted.headers.get("location")]).toEqual([303, "/console/zaken"]);
      const cookie = (accepted.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const keys = await fetch(`${origin}/console/sleutels`, { headers: { cookie } });
      expect(keys.status).toBe(200);
      expect(await keys.text()).toContain("<h1>API-sleutels</h1>");
      const missing = await fetch(`${origin}/console/zaken/2026-999999`, { headers: { cookie } });
      expect(missing.status).toBe(404);
      // A form over 64 KiB, chunked and with a Content-Length, gets the console's 413 page, and the
      // host goes on answering (issue 28, items 1 and 2).
      for (const framing of ["chunked", "content-length"] as const) {
        const tooLarge = await sendOversizedBody({
          port,
          path: "/console/inloggen",
          framing,
          bytes: 70_000,
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
        });
        expect([tooLarge.status, tooLarge.headers["content-type"]]).toEqual([
          413,
          "text/html; charset=utf-8",
        ]);
        expect(tooLarge.body).toContain("Het formulier is te groot.");
      }
      await new Promise((r) => setTimeout(r, 3_000));
      expect((await fetch(`${origin}/api/v1/ping`)).status).toBe(200);
    } finally {
      await close();
      await incasso.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
