import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncassoApi } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";

/**
 * Express middleware that serves the API's root-level routes (GET /healthz and GET /readyz) at the
 * host's root, where probes look for them, and passes every other request on. The API's own
 * mount (`incassoExpress`) replaces its prefix with the base path, so these paths cannot be reached
 * through it (decision server-health-endpoints). Mount it at the root: `app.use(...)` without a
 * path.
 *
 * @example
 * import express from "express";
 * import { incassoExpress, incassoExpressRootRoutes } from "@incasso/express";
 *
 * const app = express();
 * app.use(incassoExpressRootRoutes(incasso.api)); // /healthz, /readyz
 * app.use("/api/v1", incassoExpress(incasso.api));
 */
export function incassoExpressRootRoutes(
  api: IncassoApi,
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  const paths = new Set(api.routes.filter((route) => route.root).map((route) => route.path));
  const handle = createNodeHandler(api, { clientIp: (req) => (req as { ip?: string }).ip });
  return (req, res, next) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    if (!paths.has(query === -1 ? url : url.slice(0, query))) {
      next();
      return;
    }
    handle(req, res);
  };
}
