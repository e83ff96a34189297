import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, type IncassoApi, problemResponse } from "@incasso/server";
import { createNodeHandler } from "@incasso/server/node";

/**
 * Options of {@link incassoExpress}.
 *
 * @example
 * app.use("/api/v1", incassoExpress(api, {}));
 */
export type IncassoExpressOptions = Record<string, never>;

type ExpressRequest = IncomingMessage & { ip?: string; body?: unknown; _body?: boolean; url: string };

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

// A body parser that ran before us (express.json(), express.urlencoded()) has drained the stream and
// marked the request; the API would otherwise see an empty body and answer a baffling `empty_body`.
function bodyConsumedByHost(req: ExpressRequest): boolean {
  return hasBody(req) && (req._body === true || req.readableEnded);
}

async function sendHostMisconfigured(res: ServerResponse): Promise<void> {
  const response = problemResponse(
    new ApiError({
      status: 500,
      code: "host_body_already_parsed",
      title: "Host Misconfigured",
      detail:
        "The Express app parsed the request body before the incasso API could read it. Mount the API " +
        "before express.json() / express.urlencoded(), or apply those parsers only to your own routes, " +
        "for example app.use('/api/v1', incassoExpress(api)); app.use(express.json());",
    }),
  );
  res.statusCode = response.status;
  response.headers.forEach((v, k) => {
    res.setHeader(k, v);
  });
  res.end(await response.text());
}

/**
 * The API as Express 5 middleware. Mount it under any prefix: the part of the path below the mount
 * point is served as the API's own path below its base path, so `app.use("/collections", ...)` serves
 * `/collections/ping` as `GET {basePath}/ping`. The client IP is Express's `req.ip`, so the host's
 * `trust proxy` setting decides it.
 *
 * @example
 * import express from "express";
 * import { createIncasso } from "@incasso/app";
 * import { answerHttpErrors, incassoExpress } from "@incasso/express";
 *
 * const incasso = await createIncasso({ dataDir: ".data" });
 * const app = express();
 * app.use("/api/v1", incassoExpress(incasso.api));
 * app.use(express.json()); // parsers after the API, or only on your own routes
 * answerHttpErrors(app.listen(3000)); // what node answers itself, as problem+json
 */
export function incassoExpress(
  api: IncassoApi,
  _options: IncassoExpressOptions = {},
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  const handle = createNodeHandler(api, {
    clientIp: (req) => (req as ExpressRequest).ip,
    // Express has already cut the mount prefix off req.url (it keeps it in req.baseUrl).
    rewriteUrl: (url) => api.basePath + (url.startsWith("/") ? url : `/${url}`),
  });
  return (req, res, next) => {
    if (bodyConsumedByHost(req as ExpressRequest)) {
      sendHostMisconfigured(res).catch(next);
      return;
    }
    handle(req, res);
  };
}
