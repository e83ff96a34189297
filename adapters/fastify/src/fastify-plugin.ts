import { Readable } from "node:stream";
import type { IncassoApi } from "@incasso/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { NodeRequest } from "srvx/node";

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
interface FastNodeResponse {
  _toNodeResponse(): { status: number; headers: string[]; body: unknown };
}

/**
 * The request as the API sees it. When the body is Fastify's own raw stream (no host hook replaced
 * it), srvx's NodeRequest wraps the IncomingMessage lazily, as on the reference server; otherwise a
 * standard Request carries the (transformed) stream.
 */
function toWebRequest(request: FastifyRequest, url: string): Request {
  const body = request.body instanceof Readable ? request.body : undefined;
  if (body === undefined || body === request.raw) {
    const web = new NodeRequest({ req: request.raw }) as Request & { _url: URL };
    web._url = new URL(url);
    return web;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(url, {
    method: request.method,
    headers,
    body: Readable.toWeb(body) as ReadableStream,
    duplex: "half",
  } as RequestInit);
}

function toReplyBody(body: unknown): Buffer | Readable | null {
  if (body === null || body === undefined) return null;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ReadableStream) return Readable.fromWeb(body as never);
  return body as Readable;
}

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
    const response = await api.fetch(toWebRequest(request, url), { clientIp: request.ip });
    reply.code(response.status);
    // srvx's fast response hands over status, raw header pairs and body without building a web
    // Response; anything else is read the standard way.
    const fast = (response as Partial<FastNodeResponse>)._toNodeResponse?.();
    if (fast) {
      for (let i = 0; i < fast.headers.length; i += 2)
        reply.header(fast.headers[i] as string, fast.headers[i + 1]);
      return reply.send(toReplyBody(fast.body));
    }
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
