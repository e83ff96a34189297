import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createIncasso } from "@incasso/app";
import { incassoExpress, incassoExpressRootRoutes } from "@incasso/express";
import type { IncassoApi } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";
import { newDataDir, sendOversizedBody } from "@incasso/test-utils";
import express from "express";
import { expect, it } from "vitest";

// The console in an Express host: one app.use() beside the API's, either the console's own mount
// (docs/operator.md, Console) or the root routes of the README's example, which serve it with the
// tool pages and the probes.
const mounts = {
  "createNodeHandler at /console": (app: express.Express, api: IncassoApi) =>
    app.use(
      "/console",
      createNodeHandler(api, {
        rewriteUrl: (url) => `/console${url}`,
        clientIp: (req) => (req as { ip?: string }).ip,
      }),
    ),
  "incassoExpressRootRoutes, as the README's example": (app: express.Express, api: IncassoApi) =>
    app.use(incassoExpressRootRoutes(api)),
};

it.for(Object.entries(mounts))(
  "serves the console's pages and forms in an Express host through %s",
  {
    timeout: 60_000,
  },
  async ([, mount]) => {
    const dir = await newDataDir("incasso-console-express-");
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
    const app = express();
    mount(app, incasso.api);
    app.use("/api/v1", incassoExpress(incasso.api));
    // A body parser after both, as the README's example has: the API reads its own bodies.
    app.use(express.urlencoded({ extended: false }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { credential } = await incasso.operations.createOperator({ name: "Anne", role: "admin" });
      const login = await fetch(`${origin}/console/inloggen`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ credential }),
      });
      expect(login.status).toBe(303);
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const keys = await fetch(`${origin}/console/sleutels`, { headers: { cookie } });
      expect(keys.status).toBe(200);
      expect(await keys.text()).toContain("<h1>API-sleutels</h1>");
      const missing = await fetch(`${origin}/console/zaken/2026-999999`, { headers: { cookie } });
      expect(missing.status).toBe(404);
      // A form over 64 KiB, chunked and with a Content-Length, gets the console's 413 page, and the
      // host goes on answering (issue 28, items 1 and 2).
      const port = (server.address() as AddressInfo).port;
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
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await incasso.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
