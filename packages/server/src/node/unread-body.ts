import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A rest of a body this small (by its Content-Length) is read and dropped after the answer, as node
 * does by default, so the connection can serve the next request: a few KB cost less than a new
 * connection.
 */
const DRAINED_BYTES = 64 * 1024;

/**
 * Marks the connection to close after this answer when the request's body was not read to its
 * end and may be large: chunked (its size unknown) or with a Content-Length over 64 KiB. The API
 * refused it (413 over a limit, 401 before a key was checked, 415) or answered without needing
 * it. RFC 9110 §15.5.14 lets a server close the connection after 413, and RFC 9112 §9.6 at any
 * time with `Connection: close`; node's default, reading and dropping the rest so the connection
 * can be reused, lets one client hold a connection and the server's reading for as long as it
 * keeps sending. Under Fastify the connection of a body the API stopped reading was otherwise
 * never closed, so `close()` of the host waited for ever. Call it before the status line is
 * written.
 *
 * @example
 * import { closeAfterUnreadBody } from "@incasso/server/node";
 * closeAfterUnreadBody(res);
 * res.writeHead(413, headers);
 */
export function closeAfterUnreadBody(res: ServerResponse): void {
  // `req` is the IncomingMessage this response answers (node sets it for every server response).
  // A request without a body is not complete yet while its 'request' event runs (GET /ping is
  // answered in it), so only a declared body counts.
  const req = res.req;
  if (req.complete || res.headersSent || !declaresBody(req)) return;
  const length = req.headers["content-length"];
  if (length === undefined || Number(length) > DRAINED_BYTES) res.shouldKeepAlive = false;
}

/**
 * Whether a request announces a body: a Content-Length above 0, or a Transfer-Encoding (RFC 9112
 * §6.3: without either, a request has no body).
 *
 * @example
 * declaresBody(req); // true for a chunked POST
 */
export function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}
