import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncassoApi } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";

/**
 * Express middleware that serves the API's root-level routes at the host's root and passes every
 * other request on: the probes (GET /healthz, GET /readyz; decision server-health-endpoints), the
 * tool pages (`/tools`, `/tools/wik`, `/tools/rol-router`; decision pages-api-reference) and the
 * operator console (`/console/…`, with its `:caseNumber`-style segments). The API's own mount
 * (`incassoExpress`) replaces its prefix with the base path, so these paths cannot be reached
 * through it. Mount it at the root, `app.use(...)` without a path, and before any body parser:
 * the console's forms are read by the API, like its JSON.
 *
 * @example
 * import express from "express";
 * import { incassoExpress, incassoExpressRootRoutes } from "@incasso/express";
 *
 * const app = express();
 * app.use(incassoExpressRootRoutes(incasso.api)); // /healthz, /readyz, /tools, /console
 * app.use("/api/v1", incassoExpress(incasso.api));
 */
export function incassoExpressRootRoutes(
  api: IncassoApi,
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  const matchers = [...new Set(api.routes.filter((route) => route.root).map((route) => route.path))].map(
    pathMatcher,
  );
  const handle = createNodeHandler(api, { clientIp: (req) => (req as { ip?: string }).ip });
  return (req, res, next) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (!matchers.some((matches) => matches(path))) {
      next();
      return;
    }
    handle(req, res);
  };
}

/**
 * Whether a request path falls under a route path of the API: the same segments, where `:name`
 * stands for one non-empty segment and a last `**` for the rest (the patterns the kernel's router
 * takes). Only the choice of handler rests on it: the API routes the request itself.
 */
function pathMatcher(pattern: string): (path: string) => boolean {
  if (!pattern.includes(":") && !pattern.includes("*")) return (path) => path === pattern;
  const parts = pattern.split("/");
  return (path) => {
    const segments = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      if (part === "**" && i === parts.length - 1) return true;
      const segment = segments[i];
      if (segment === undefined) return false;
      if (part.startsWith(":") || part === "*") {
        if (segment === "") return false;
      } else if (part !== segment) return false;
    }
    return segments.length === parts.length;
  };
}
