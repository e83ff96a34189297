import { Readable } from "node:stream";
import type { IncassoApi } from "@incasso/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";

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
 * because the reply is sent through Fastify rather than hijacked.
 *
 * @example
 * import Fastify from "fastify";
 * import { createApi } from "@incasso/server";
 * import { incassoFastify } from "@incasso/fastify";
 *
 * const app = Fastify();
 * await app.register(incassoFastify, { api: createApi(), prefix: "/api/v1" });
 * await app.listen({ port: 3000 });
 */
export const incassoFastify: FastifyPluginAsync<IncassoFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const prefix = fastify.prefix;
  fastify.removeAllContentTypeParsers();
  // Keep the body as the raw byte stream: the API enforces its own content type, size limit (40 MB,
  // counted while streaming) and JSON errors, exactly as on every other transport.
  fastify.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.slice(prefix.length);
    const url = `http://${request.headers.host ?? "localhost"}${api.basePath}${path.startsWith("/") ? path : `/${path}`}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const stream = request.body instanceof Readable ? request.body : undefined;
    const response = await api.fetch(
      new Request(url, {
        method: request.method,
        headers,
        ...(stream ? { body: Readable.toWeb(stream) as ReadableStream, duplex: "half" } : {}),
      } as RequestInit),
      { clientIp: request.ip },
    );
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };

  fastify.all("/", handler);
  fastify.all("/*", handler);
  // Methods Fastify does not route (PROPFIND and the like) end here, so they get the API's 404/405.
  fastify.setNotFoundHandler(handler);
};
