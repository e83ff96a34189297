import type { IncassoApi } from "@incasso/server";
import { toWebRequest } from "@incasso/server/node";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
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
 * A Fastify plugin that serves the API's root-level routes (GET /healthz and GET /readyz) at the
 * host's root, where probes look for them. The API's own plugin (`incassoFastify`) replaces its
 * prefix with the base path, so these paths cannot be reached through it (decision
 * server-health-endpoints). Register it without a prefix.
 *
 * @example
 * import Fastify from "fastify";
 * import { incassoFastify, incassoFastifyRootRoutes } from "@incasso/fastify";
 *
 * const app = Fastify();
 * await app.register(incassoFastifyRootRoutes, { api: incasso.api }); // /healthz, /readyz
 * await app.register(incassoFastify, { api: incasso.api, prefix: "/api/v1" });
 */
export const incassoFastifyRootRoutes: FastifyPluginAsync<IncassoFastifyRootRoutesOptions> = async (
  fastify,
  options,
) => {
  const { api } = options;
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    // The probes read no body; the path is passed as it is, at the root.
    api
      .fetch(toWebRequest(request.raw, { url: request.url }), { clientIp: request.ip })
      .then((answer) => sendReply(reply, answer));
  // One registration per path: a root path may carry several methods (the console's GET and POST
  // of one page), and Fastify refuses a second `all` on the same path.
  const paths = new Set(api.routes.filter((route) => route.root).map((route) => route.path));
  for (const path of paths) fastify.all(path, handler);
};
