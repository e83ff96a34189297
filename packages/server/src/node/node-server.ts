import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../api-error.js";
import type { IncassoApi, RequestContext } from "../create-api.js";
import { problemResponse } from "../problem.js";
import { requestIdFromHeader } from "../request-id.js";
import { createBodyRateGuard } from "./body-rate-guard.js";
import { capConnections } from "./connection-cap.js";
import { type ConnectionLimits, resolveConnectionLimits } from "./connection-limits.js";
import { answerHttpErrors } from "./http-errors.js";
import { toWebRequest } from "./web-request.js";
import { failResponse, sendWebResponse } from "./web-response.js";

/**
 * Options of {@link createNodeHandler}.
 *
 * @example
 * const opts: NodeHandlerOptions = { trustProxy: false };
 */
export interface NodeHandlerOptions {
  /**
   * Read the client IP from `X-Forwarded-For` (only behind a proxy you run). Default false: the
   * socket's address is used, so a client cannot pick its own rate-limit bucket.
   */
  trustProxy?: boolean;
  /** Where the client IP comes from when the host knows better (Express's `req.ip`). */
  clientIp?: (req: IncomingMessage) => string | undefined;
  /**
   * Rewrites the request path before the API sees it; adapters use it to replace the host's mount
   * prefix with the API's base path.
   */
  rewriteUrl?: (url: string) => string;
}

/**
 * The client IP of one request, worked out only when the API reads it (a route with a per-IP limit
 * does; GET /ping without a key does not): the host's own answer (Express's `req.ip`, which runs
 * its proxy rules), else the socket's address or, with `trustProxy`, `X-Forwarded-For`.
 */
class LazyClientIp implements RequestContext {
  constructor(
    private readonly req: IncomingMessage,
    private readonly request: Request & { readonly ip?: string | undefined },
    private readonly clientIpOf: ((req: IncomingMessage) => string | undefined) | undefined,
  ) {}

  get clientIp(): string | undefined {
    return this.clientIpOf?.(this.req) ?? this.request.ip;
  }
}

/**
 * The API as a `node:http` request listener.
 *
 * @example
 * import { createServer } from "node:http";
 * import { createNodeHandler } from "@incasso/server/node";
 * createServer(createNodeHandler(api)).listen(3000);
 */
export function createNodeHandler(
  api: IncassoApi,
  options: NodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const trustProxy = options.trustProxy ?? false;
  const clientIpOf = options.clientIp;
  const rewriteUrl = options.rewriteUrl;
  return (req, res) => {
    const request = toWebRequest(req, {
      res,
      trustProxy,
      url: rewriteUrl !== undefined && req.url !== undefined ? rewriteUrl(req.url) : undefined,
    });
    api.fetch(request, new LazyClientIp(req, request, clientIpOf)).then(
      // The server may have answered already (a body cut for its pace gets 408 while the API still
      // reads it): a second answer has nowhere to go.
      (answer) => (res.writableEnded ? undefined : sendWebResponse(res, answer)),
      // api.fetch answers every failure itself; this is only reached if that answer cannot be made.
      () => failResponse(res),
    );
  };
}

/**
 * Options of {@link createNodeServer}: those of the handler, and the time-outs and caps of the
 * connections (decision server-slow-clients).
 *
 * @example
 * const opts: NodeServerOptions = { trustProxy: false, limits: { maxConnections: 500 } };
 */
export interface NodeServerOptions extends NodeHandlerOptions {
  /** Time-outs, minimum body rate and connection cap; each has a default. */
  limits?: ConnectionLimits;
}

/**
 * A `node:http` server for the API. Requests that node's HTTP parser itself refuses (oversized
 * headers, malformed request lines) and an `Expect` other than `100-continue` still get an
 * `application/problem+json` answer instead of a bare status line ({@link answerHttpErrors}, which
 * a host that owns its server calls itself). Slow clients are bounded (decision server-slow-clients): headers and the
 * whole request have time-outs (408 `request_timeout`), a body must keep a minimum average rate
 * after a grace period (408, connection closed), and connections over the cap get 503
 * `server_busy` with `Retry-After` and are closed.
 *
 * @example
 * import { createNodeServer } from "@incasso/server/node";
 * const server = createNodeServer(api, { limits: { maxConnections: 500 } });
 * server.listen(3000, "127.0.0.1");
 */
export function createNodeServer(api: IncassoApi, options: NodeServerOptions = {}): Server {
  const limits = resolveConnectionLimits(options.limits);
  const handler = createNodeHandler(api, options);
  const guard = createBodyRateGuard({
    minBytesPerSecond: limits.minBodyBytesPerSecond,
    graceMs: limits.bodyGraceMs,
    onTooSlow: cutSlowBody,
  });
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // node checks both time-outs on this interval (default 30 s, which would let a 1 byte/s
      // header live half a minute past its time-out).
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
      ),
    },
    (req, res) => {
      guard.watch(req, res);
      handler(req, res);
    },
  );
  capConnections(server, limits.maxConnections);
  server.on("close", () => guard.close());
  // Parser refusals and unmet expectations as problem+json: the same call an embedding host makes
  // on its own server.
  answerHttpErrors(server);
  return server;
}

// A body slower than the minimum rate: 408 when nothing was answered yet (RFC 9110 §15.5.9), and
// the connection closed either way, so the client and its upload stop holding it.
function cutSlowBody(req: IncomingMessage, res: ServerResponse, socket: Socket): void {
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const response = problemResponse(
    new ApiError({
      status: 408,
      code: "request_timeout",
      detail: "The request body arrived too slowly: below the server's minimum rate.",
    }),
  );
  const incoming = req.headers["x-request-id"];
  response.headers.set("x-request-id", requestIdFromHeader(Array.isArray(incoming) ? incoming[0] : incoming));
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("connection", "close");
  res.shouldKeepAlive = false;
  void sendWebResponse(res, response).then(() => {
    // The client may still be sending; the rest is not read. A moment for the answer to leave,
    // then the connection goes.
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}

/**
 * Starts the API on a port and resolves once it listens.
 *
 * @example
 * import { listen } from "@incasso/server/node";
 * const { server, url } = await listen(api, { port: 3000, host: "127.0.0.1" });
 * console.log(url); // http://127.0.0.1:3000/api/v1
 */
export async function listen(
  api: IncassoApi,
  options: NodeServerOptions & { port?: number; host?: string } = {},
): Promise<{ server: Server; url: string }> {
  const server = createNodeServer(api, options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3000, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { server, url: `http://${shownHost}:${port}${api.basePath}` };
}
