import { Readable } from "node:stream";
import type { IncassoApi } from "@incasso/server";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { FastURL, NodeRequest } from "srvx/node";

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
function toWebRequest(request: FastifyRequest, host: string, path: string): Request {
  const body = request.body instanceof Readable ? request.body : undefined;
  if (body === undefined || body === request.raw) {
    const web = new NodeRequest({ req: request.raw }) as Request & { _url: URL };
    // srvx's URL from its parts: parsed in full only if a path or query needs normalising.
    const q = path.indexOf("?");
    web._url = new FastURL({
      protocol: "http:",
      host,
      pathname: q === -1 ? path : path.slice(0, q),
      search: q === -1 ? "" : path.slice(q),
    }) as URL;
    return web;
  }
  const url = `http://${host}${path}`;
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

// A Host header fit to stand in a URL (RFC 9110 §7.2: host and optional port); anything else is
// replaced, so a client cannot break the URL the API routes on.
const PLAIN_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

function toReplyBody(body: unknown, contentType: string | undefined): string | Buffer | Readable | null {
  if (body === null || body === undefined) return null;
  // Fastify sends a string as it is, but adds "; charset=utf-8" to a content type without one
  // (application/problem+json has none): only bytes keep the API's header exactly.
  if (typeof body === "string") return contentType?.includes("charset") ? body : Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ReadableStream) return Readable.fromWeb(body as never);
  return body as Readable;
}

/**
 * The API's answer through Fastify's reply, so the host's onSend and onResponse hooks see it.
 * srvx's fast response hands over status, raw header pairs and body without building a web
 * Response; anything else is read the standard way.
 */
function sendReply(reply: FastifyReply, response: Response): FastifyReply | Promise<FastifyReply> {
  reply.code(response.status);
  const fast = (response as Partial<FastNodeResponse>)._toNodeResponse?.();
  if (fast) {
    let contentType: string | undefined;
    for (let i = 0; i < fast.headers.length; i += 2) {
      const name = fast.headers[i] as string;
      const value = fast.headers[i + 1] as string;
      if (name === "content-type") contentType = value;
      reply.header(name, value);
    }
    return reply.send(toReplyBody(fast.body, contentType));
  }
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return response.arrayBuffer().then((bytes) => reply.send(Buffer.from(bytes)));
}

export const incassoFastify: FastifyPluginAsync<IncassoFastifyOptions> = async (fastify, options) => {
  const { api } = options;
  const prefix = fastify.prefix;
  fastify.removeAllContentTypeParsers();
  // Keep the body as the raw byte stream: the API enforces its own content type, size limit (40 MB,
  // counted while streaming) and JSON errors, exactly as on every other transport.
  fastify.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

  // Not an async function: an answer the API gives synchronously (GET /ping) is sent at once,
  // without a promise for Fastify to wait on. A promise returned here settles only once the reply
  // is sent, so Fastify never sends a second, empty reply.
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const rest = request.url.slice(prefix.length);
    const path = `${api.basePath}${rest.startsWith("/") ? rest : `/${rest}`}`;
    const hostHeader = request.headers.host;
    const host = hostHeader !== undefined && PLAIN_HOST.test(hostHeader) ? hostHeader : "localhost";
    const response = api.handle(toWebRequest(request, host, path), { clientIp: request.ip });
    if (response instanceof Promise) return response.then((answer) => sendReply(reply, answer));
    return sendReply(reply, response);
  };

  fastify.all("/", handler);
  fastify.all("/*", handler);
  // Methods Fastify does not route (PROPFIND and the like) end here, so they get the API's 404/405.
  fastify.setNotFoundHandler(handler);
};
