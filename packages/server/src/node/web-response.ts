import type { ServerResponse } from "node:http";
import { sendNodeResponse } from "srvx/node";
import { responseParts } from "../response-parts.js";
import { closeAfterUnreadBody } from "./unread-body.js";

/**
 * Writes a web `Response` to node's response: the bridge back from the kernel, used by the
 * reference server and Express. The API's own answers are srvx fast responses, which srvx writes
 * in one `end` call; a streamed body is piped. Never rejects: when the answer cannot be written,
 * the connection gets a bare 500 (or is closed when the headers already went out).
 *
 * @example
 * import { sendWebResponse, toWebRequest } from "@incasso/server/node";
 * await sendWebResponse(res, await api.fetch(toWebRequest(req, { res })));
 */
export function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  closeAfterUnreadBody(res);
  const parts = responseParts(response);
  if (parts !== undefined) {
    // The API's common answer: status line, headers and body in one `end` call, and node's own
    // reason phrase.
    if (!res.headersSent) {
      // node takes names and values in one flat list and writes them as they are.
      const headers = parts.headers;
      const flat: string[] = [];
      for (let i = 0; i < headers.length; i++) {
        const header = headers[i] as readonly [string, string];
        flat.push(header[0], header[1]);
      }
      res.writeHead(parts.status, flat);
    }
    res.end(parts.body ?? undefined);
    return Promise.resolve();
  }
  return sendNodeResponse(res, response).catch(() => failResponse(res));
}

/**
 * Ends a response that could not be answered properly: a bare 500, or a closed connection when
 * the headers are already sent.
 *
 * @example
 * failResponse(res);
 */
export function failResponse(res: ServerResponse): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = 500;
  res.end();
}
