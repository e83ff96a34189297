import type { IncassoApi } from "@incasso/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { FastifyClientIp, toRequest } from "./fastify-request.js";
import { keepRawBody } from "./raw-body.js";
import { sendReply } from "./send-reply.js";

/**
 * Options of {@link incassoFastifyRootRoutes}.
 *
 * @example
 * const options: IncassoFastifyRootRoutesOptions = { api: incasso.api };
 */
export interface IncassoFastifyRootRoutesOptions {
  api: IncassoApi;
}

/**
 * A Fastify plugin that serves the API's root-level routes at the host's root: the probes (GET
 * /healthz and GET /readyz, where probes look for them), the tool pages at /tools and the console
 * at /console, its forms included. The API's own plugin (`incassoFastify`) replaces its prefix with
 * the base path, so these paths cannot be reached through it (decision server-health-endpoints).
 * Register it without a prefix. It is encapsulated, like `incassoFastify`: the request bodies of
 * its routes reach the API unread, and the host's other routes keep Fastify's parsers.
 *
 * @example
 * import Fastify from "fastify";
 * import { incassoFastify, incassoFastifyRootRoutes } from "@incasso/fastify";
 *
 * const app = Fastify();
 * await app.register(incassoFastifyRootRoutes, { api: incasso.api }); // /tools, /console, probes
 * await app.register(incassoFastify, { api: incasso.api, prefix: "/api/v1" });
 */
export const incassoFastifyRootRoutes: FastifyPluginAsync<IncassoFastifyRootRoutesOptions> = async (
  fastify,
  options,
) => {
  const { api } = options;
  // The path is passed as it is, at the root.
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    api.fetch(toRequest(request, request.url), new FastifyClientIp(request)).then((answer) => {
      const sent = sendReply(reply, answer);
      return sent instanceof Promise ? sent : undefined;
    });
  // The console's forms (application/x-www-form-urlencoded) reach the API unread, as the API's own
  // requests do through incassoFastify.
  keepRawBody(fastify, handler);
  // One registration per path: a root path may carry several methods (the console's GET and POST
  // of one page), and Fastify refuses a second `all` on the same path.
  const paths = new Set(api.routes.filter((route) => route.root).map((route) => route.path));
  for (const path of paths) fastify.all(path, handler);
};
