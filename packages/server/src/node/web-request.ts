import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeRequest } from "srvx/node";

/**
 * Options of {@link toWebRequest}.
 *
 * @example
 * const options: WebRequestOptions = { url: "/api/v1/ping", trustProxy: false };
 */
export interface WebRequestOptions {
  /** The response the answer will be written to; lets the request see the connection close. */
  res?: ServerResponse;
  /**
   * The path and query the API should see, when the host mounted it under a prefix of its own
   * (Express cuts the prefix off `req.url`, Fastify keeps it). The IncomingMessage keeps its own
   * `url`, so the host's logs and hooks still show what the client sent.
   */
  url?: string | undefined;
  /**
   * Read the client IP from `X-Forwarded-For` (only behind a proxy you run). Default false: the
   * socket's address, so a client cannot pick its own rate-limit bucket.
   */
  trustProxy?: boolean;
}

/**
 * The one bridge from node's request to the web `Request` the kernel serves: the reference server,
 * Express and Fastify all use it. The Request is srvx's NodeRequest over the IncomingMessage, so the
 * URL, the headers and the body are read only when the API asks for them, and the body is the raw
 * byte stream, untouched by any host parser.
 *
 * @example
 * import { toWebRequest } from "@incasso/server/node";
 * const request = toWebRequest(req, { res, url: `/api/v1${req.url}` });
 * const response = await api.fetch(request, { clientIp: request.ip });
 */
export function toWebRequest(
  req: IncomingMessage,
  options: WebRequestOptions = {},
): Request & { readonly ip?: string | undefined } {
  const original = req.url;
  const rewrite = options.url !== undefined && options.url !== original;
  if (rewrite) req.url = options.url;
  try {
    // One object of one shape per request, without spreads: this runs for every request.
    const context: { req: IncomingMessage; res?: ServerResponse; trustProxy?: boolean } = { req };
    if (options.res !== undefined) context.res = options.res;
    if (options.trustProxy === true) context.trustProxy = true;
    const request = new NodeRequest(context) as Request & { readonly ip?: string | undefined };
    // The URL is read now, while req.url holds the API's path; after that the host's own url is
    // put back.
    if (rewrite) void request.url;
    return request;
  } finally {
    if (rewrite) req.url = original;
  }
}
