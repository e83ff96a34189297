import type { IncassoApi } from "@incasso/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { FastifyClientIp, toRequest } from "./fastify-request.js";
import { answerMalformedUrls } from "./malformed-urls.js";
import { keepRawBody } from "./raw-body.js";
import { sendReply } from "./send-reply.js";

/**
 * Options of {@link incassoFastify}: the API, and Fastify's own `prefix`.
 *
 * @example
 * await app.register(incassoFastify, { api, prefix: "/api/v1" });
 */
export interface IncassoFastifyOptions {
  api: IncassoApi;
  prefix?: string;
}

/**
 * The API as a Fastify 5 plugin, registered under a prefix. It is encapsulated (not wrapped in
 * fastify-plugin), so its content-type parser, which hands the raw body stream to the API untouched,
 * applies to its own routes only, and the host's hooks (onRequest, onSend, onResponse) still run
 * because the reply is sent through Fastify rather than hijacked. A URL below the prefix with
 * malformed percent-encoding, which Fastify would answer with its own JSON, gets the API's
 * problem+json too, with no option for the host to remember.
 *
 * @example
 * import Fastify from "fastify";
 * import { createIncasso } from "@incasso/app";
 * import { answerHttpErrors, incassoFastify } from "@incasso/fastify";
 *
 * const incasso = await createIncasso({ dataDir: ".data" });
 * const app = Fastify();
 * answerHttpErrors(app.server); // what node answers itself, as problem+json
 * await app.register(incassoFastify, { api: incasso.api, prefix: "/api/v1" });
 * await app.listen({ port: 3000 });
 */
export const incassoFastify: FastifyPluginAsync<IncassoFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const prefix = fastify.prefix;
  // The promise returned here settles only once the reply is sent, so Fastify never sends a
  // second, empty reply. An answer sent at once settles it with nothing: the reply itself is a
  // thenable, and settling with it would have Fastify watch the response until it finished.
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const rest = request.url.slice(prefix.length);
    const path = `${api.basePath}${rest.startsWith("/") ? rest : `/${rest}`}`;
    return api.fetch(toRequest(request, path), new FastifyClientIp(request)).then((answer) => {
      const sent = sendReply(reply, answer);
      return sent instanceof Promise ? sent : undefined;
    });
  };

  // The body stays the raw byte stream, for the API to read and judge.
  keepRawBody(fastify, handler);

  // Fastify answers a URL with malformed percent-encoding itself, before any plugin runs; below
  // this prefix the API answers it instead, as on every other transport.
  answerMalformedUrls(fastify.server, prefix, api);

  fastify.all("/", handler);
  fastify.all("/*", handler);
  // The API's paths without parameters (GET /ping first of all) also as static routes: the router
  // finds them without matching the wildcard and filling its parameter. Same handler, same answer.
  for (const route of api.routes) {
    if (route.root || route.path.includes(":") || route.path.includes("*")) continue;
    // HEAD stays with the wildcard route: Fastify's own HEAD route would add `Content-Length: 0`.
    fastify.route({ method: route.method, url: route.path, exposeHeadRoute: false, handler });
  }
  // Methods Fastify does not route (PROPFIND and the like) end here, so they get the API's 404/405.
  fastify.setNotFoundHandler(handler);
};
