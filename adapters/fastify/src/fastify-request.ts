import { Readable } from "node:stream";
import type { RequestContext } from "@incasso/server";
import { toWebRequest } from "@incasso/server/node";
import type { FastifyRequest } from "fastify";

// A Host header fit to stand in a URL (RFC 9110 §7.2: host and optional port); anything else is
// replaced, so a client cannot break the URL the API routes on.
const PLAIN_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The request as the API sees it, at `path`. When the body is Fastify's own raw stream (no host
 * hook replaced it), the server's node bridge wraps the IncomingMessage lazily, as on the reference
 * server; otherwise a standard Request carries the (transformed) stream.
 *
 * @example
 * api.fetch(toRequest(request, "/api/v1/ping"), new FastifyClientIp(request));
 */
export function toRequest(request: FastifyRequest, path: string): Request {
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

/**
 * The client IP as Fastify's `request.ip` gives it (the host's `trustProxy` decides), read only when
 * the API asks: GET /ping without a key never does.
 *
 * @example
 * api.fetch(toRequest(request, path), new FastifyClientIp(request));
 */
export class FastifyClientIp implements RequestContext {
  constructor(private readonly request: FastifyRequest) {}

  get clientIp(): string | undefined {
    return this.request.ip;
  }
}
