import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { IncassoApi } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";

type RequestListener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

// find-my-way refuses a path that decodeURIComponent cannot decode (a `%` without two hex digits,
// or escapes that are no UTF-8), and Fastify then answers with its own JSON before any hook runs.
function isMalformed(path: string): boolean {
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

function isBelow(path: string, prefix: string): boolean {
  return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Lets the API answer requests below `prefix` whose path has malformed percent-encoding, which
 * Fastify would otherwise refuse with its own JSON before any plugin runs (its `frameworkErrors`
 * option can only be set when the host creates the instance). The server's request listeners are
 * wrapped: such a request goes to the API's node handler (400 `malformed_url` as problem+json),
 * every other request to Fastify unchanged. `app.inject()` bypasses the server; a host that tests
 * through it passes `frameworkErrors: incassoFrameworkErrors`.
 *
 * @example
 * answerMalformedUrls(fastify.server, "/api/v1", api);
 */
export function answerMalformedUrls(server: Server, prefix: string, api: IncassoApi): void {
  const listeners = server.listeners("request") as RequestListener[];
  if (listeners.length === 0) return;
  const toApi = createNodeHandler(api, {
    rewriteUrl: (url) => {
      const rest = url.slice(prefix.length);
      return `${api.basePath}${rest.startsWith("/") ? rest : `/${rest}`}`;
    },
  });
  server.removeAllListeners("request");
  server.on("request", function (this: Server, req: IncomingMessage, res: ServerResponse) {
    const path = pathOf(req.url ?? "/");
    if (isBelow(path, prefix) && isMalformed(path)) {
      toApi(req, res);
      return;
    }
    for (const listener of listeners) listener.call(this, req, res);
  });
}
