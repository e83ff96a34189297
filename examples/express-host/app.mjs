import { createServer } from "node:http";
import { answerHttpErrors, incassoExpress, incassoExpressRootRoutes } from "@incasso/express";
import express from "express";

/**
 * The host's own Express app, with the incasso API mounted under `prefix` (default /api/v1).
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @param {{ prefix?: string }} [options]
 */
export function createApp(api, options = {}) {
  const app = express();
  app.get("/host/health", (_req, res) => {
    res.json({ host: true });
  });
  // The probes (GET /healthz, GET /readyz) at the host's root, where a load balancer looks.
  app.use(incassoExpressRootRoutes(api));
  // Mount the API before any body parser: it reads the raw body itself (size limit, JSON errors).
  app.use(options.prefix ?? "/api/v1", incassoExpress(api));
  // The host's own routes keep their parsers.
  app.use(express.json());
  app.post("/internal/notes", (req, res) => {
    res.status(201).json({ saved: req.body });
  });
  return app;
}

/**
 * The host's server for that app, not yet listening. node answers a malformed request line,
 * oversized headers and an `Expect` other than 100-continue itself, before Express sees the
 * request; `answerHttpErrors` makes those answers the API's problem+json too.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @param {{ prefix?: string }} [options]
 * @returns {import("node:http").Server}
 */
export function createHost(api, options = {}) {
  return answerHttpErrors(createServer(createApp(api, options)));
}
