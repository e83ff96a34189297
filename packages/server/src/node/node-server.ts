import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../api-error.js";
import type { IncassoApi, RequestContext } from "../create-api.js";
import { problemResponse, toProblemDetails } from "../problem.js";
import { newRequestId, requestIdFromHeader } from "../request-id.js";
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
    const response = api.handle(request, new LazyClientIp(req, request, clientIpOf));
    // A synchronous answer (GET /ping) is written without waiting for a promise of our own.
    if (!(response instanceof Promise)) {
      void sendWebResponse(res, response);
      return;
    }
    response.then(
      (answer) => sendWebResponse(res, answer),
      // api.handle answers every failure itself; this is only reached if that answer cannot be made.
      () => failResponse(res),
    );
  };
}

function rawProblem(status: number, code: string, detail: string): string {
  const body = JSON.stringify(toProblemDetails(new ApiError({ status, code, detail })));
  return (
    `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
    "Content-Type: application/problem+json\r\n" +
    // Node refused the request before it was parsed: no X-Request-Id of the client's can be read.
    `X-Request-Id: ${newRequestId()}\r\n` +
    "X-Content-Type-Options: nosniff\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/**
 * Options of {@link createNodeServer}.
 *
 * @example
 * const opts: NodeServerOptions = { trustProxy: false };
 */
export type NodeServerOptions = NodeHandlerOptions;

/**
 * A `node:http` server for the API. Requests that node's HTTP parser itself refuses (oversized
 * headers, malformed request lines) still get an `application/problem+json` answer instead of a
 * bare status line.
 *
 * @example
 * import { createNodeServer } from "@incasso/server/node";
 * const server = createNodeServer(api);
 * server.listen(3000, "127.0.0.1");
 */
export function createNodeServer(api: IncassoApi, options: NodeServerOptions = {}): Server {
  const server = createServer(createNodeHandler(api, options));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    socket.end(
      tooLarge
        ? rawProblem(431, "headers_too_large", "The request headers are too large.")
        : rawProblem(400, "bad_request", "The request could not be parsed as HTTP."),
    );
  });
  // node answers an Expect other than 100-continue with a bare 417 before any handler runs; this
  // event replaces that answer with the API's own problem+json (RFC 9110 §10.1.1 lets a server
  // refuse an expectation it does not understand with 417).
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    void sendWebResponse(res, expectationFailed(req));
  });
  return server;
}

function expectationFailed(req: IncomingMessage): Response {
  // The client's value is named when it is short, so a header of many KB is not copied back.
  const expect = req.headers.expect ?? "";
  const named = expect.length <= 64 ? `The expectation ${expect}` : "The expectation";
  const response = problemResponse(
    new ApiError({
      status: 417,
      code: "expectation_failed",
      detail: `${named} cannot be met: only Expect: 100-continue is understood.`,
    }),
  );
  // The headers of every answer (decision server-response-headers): the request's headers are
  // parsed here, so a client's own X-Request-Id is echoed by the same rule as everywhere.
  const incoming = req.headers["x-request-id"];
  response.headers.set("x-request-id", requestIdFromHeader(Array.isArray(incoming) ? incoming[0] : incoming));
  response.headers.set("x-content-type-options", "nosniff");
  return response;
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
