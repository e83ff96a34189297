import { Readable } from "node:stream";
import type { IncassoApi, RequestContext } from "@incasso/server";
import { toWebRequest } from "@incasso/server/node";
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { answerMalformedUrls } from "./malformed-urls.js";
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
 * The request as the API sees it. When the body is Fastify's own raw stream (no host hook replaced
 * it), the server's node bridge wraps the IncomingMessage lazily, as on the reference server;
 * otherwise a standard Request carries the (transformed) stream.
 */
function toRequest(request: FastifyRequest, path: string): Request {
  const body = request.body instanceof Readable ? request.body : undefined;
  if (body === undefined || body === request.raw) return toWebRequest(request.raw, { url: path });
  const hostHeader = request.headers.host;
  const host = hostHeader !== undefined && PLAIN_HOST.test(hostHeader) ? hostHeader : "localhost";
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${host}${path}`, {
    method: request.method,
    headers,
    body: Readable.toWeb(body) as ReadableStream,
    duplex: "half",
  } as RequestInit);
}

// A Host header fit to stand in a URL (RFC 9110 §7.2: host and optional port); anything else is
// replaced, so a client cannot break the URL the API routes on.
const PLAIN_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The client IP as Fastify's `request.ip` gives it (the host's `trustProxy` decides), read only when
 * the API asks: GET /ping without a key never does.
 */
class FastifyClientIp implements RequestContext {
  constructor(private readonly request: FastifyRequest) {}

  get clientIp(): string | undefined {
    return this.request.ip;
  }
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
  fastify.removeAllContentTypeParsers();
  // Keep the body as the raw byte stream: the API enforces its own content type, size limit (40 MB,
  // counted while streaming) and JSON errors, exactly as on every other transport.
  fastify.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

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

  // Fastify refuses a Content-Type it cannot parse (empty, or two joined by a comma) with a 415 of
  // its own JSON before the route runs. The body is still unread, so the API judges the request
  // itself, as on every other transport: 415 problem+json for content that is not JSON, or no
  // complaint where the route needs no body. Other errors go to the host's error handler.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return handler(request, reply);
    throw error;
  });

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
