import type { ServerResponse } from "node:http";

/**
 * Marks the connection to close after this answer when the API began to read the request's body
 * and stopped before its end: a body over a limit (413) or over the body budget (503), cut while
 * chunked. The rest of such a body can no longer be read and dropped: the reader that stopped
 * holds the request stream, and node pauses the socket when that stream is not read, so the
 * connection would stay open, neither served nor closed, for as long as the client waits (under
 * Fastify, `close()` of the host waited for ever). RFC 9110 §15.5.14 lets a server close the
 * connection after 413, and RFC 9112 §9.6 at any time with `Connection: close`.
 *
 * A body the API never began to read (401 before the key was checked, 413 by its Content-Length)
 * is left to node, which reads and drops it after the answer and keeps the connection: closing
 * then would reset a connection the client is still sending on, and the client could lose the
 * answer (RFC 9112 §9.6 on closing in stages). Call it before the status line is written.
 *
 * @example
 * import { closeAfterUnreadBody } from "@incasso/server/node";
 * closeAfterUnreadBody(res);
 * res.writeHead(413, headers);
 */
export function closeAfterUnreadBody(res: ServerResponse): void {
  // `req` is the IncomingMessage this response answers (node sets it for every server response);
  // `readableDidRead` says a reader took some of its body.
  const req = res.req;
  if (!req.complete && req.readableDidRead && !res.headersSent) res.shouldKeepAlive = false;
}
