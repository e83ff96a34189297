import type { HttpHandler, HttpMethod, HttpRequest, HttpResponseInit } from "@azure/functions";
import { type IncassoApi, type RequestContext, responseParts } from "@incasso/server";
import { FunctionsRequest } from "./functions-request.js";

/**
 * Options of {@link createAzureFunctionsHandler}.
 *
 * @example
 * const opts: AzureFunctionsOptions = { routePrefix: "api" };
 */
export interface AzureFunctionsOptions {
  /**
   * The Functions host's route prefix (`extensions.http.routePrefix` in host.json), stripped before
   * the API sees the path. Default `api`, the host's own default.
   */
  routePrefix?: string;
}

/**
 * The API's URL for a request the Functions host received at `url`: the route prefix replaced by
 * the base path, the query kept, a fragment dropped. `url` is a serialized URL (the host's
 * Request made it), so its path starts at the first `/` after `://` and holds no dot segments, and
 * the result is read the same way by the router without being parsed here.
 */
function apiUrl(url: string, prefix: string, basePath: string): string {
  // The route prefix is the base path (host.json's routePrefix "api/v1"): the URL is the API's own.
  if (prefix === basePath && !url.includes("#")) return url;
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  if (pathStart === -1) return `${url}${basePath}/`;
  let end = url.indexOf("#", pathStart);
  if (end === -1) end = url.length;
  let queryStart = url.indexOf("?", pathStart);
  if (queryStart === -1 || queryStart > end) queryStart = end;
  const pathname = url.slice(pathStart, queryStart);
  let rest = pathname;
  if (prefix !== "/") {
    if (pathname === prefix) rest = "/";
    else if (pathname.startsWith(`${prefix}/`)) rest = pathname.slice(prefix.length);
  }
  return url.slice(0, pathStart) + basePath + rest + url.slice(queryStart, end);
}

/**
 * The client IP from the first `X-Forwarded-For` entry, which the Functions front end sets (a port
 * after it dropped), read only when the API asks: GET /ping without a key never does.
 */
class ForwardedClientIp implements RequestContext {
  constructor(private readonly request: HttpRequest) {}

  get clientIp(): string | undefined {
    const forwarded = this.request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    return forwarded ? forwarded.replace(/:\d+$/, "") : undefined;
  }
}

/**
 * The API as an Azure Functions v4 HTTP handler. The host's route prefix is stripped and the API's
 * base path put in its place, so with the default `api` prefix, `/api/ping` is served as
 * `GET {basePath}/ping`; set host.json's routePrefix to `api/v1` to publish `/api/v1/ping`.
 * The client IP is the first `X-Forwarded-For` entry, which the Functions front end sets.
 *
 * @example
 * const handler = createAzureFunctionsHandler(incasso.api);
 * app.http("incasso", { route: "{*path}", methods: ["GET", "POST"], authLevel: "anonymous", handler });
 */
export function createAzureFunctionsHandler(
  api: IncassoApi,
  options: AzureFunctionsOptions = {},
): HttpHandler {
  const prefix = `/${(options.routePrefix ?? "api").replace(/^\/+|\/+$/g, "")}`;
  const basePath = api.basePath;
  const answer = (response: Response): HttpResponseInit | Promise<HttpResponseInit> => {
    const outHeaders: Record<string, string> = {};
    const parts = responseParts(response);
    if (parts !== undefined) {
      // The API's common answer, from its parts: no body stream to read.
      for (const [name, value] of parts.headers) outHeaders[name] = value;
      const init: HttpResponseInit = { status: parts.status, headers: outHeaders };
      // No body for HEAD (null) or an empty one, as for any other answer below.
      // UTF-8 bytes through node's Buffer (the Functions host runs on node): a quarter of the CPU of
      // TextEncoder for a short body.
      if (parts.body !== null && parts.body.length > 0) init.body = Buffer.from(parts.body, "utf8");
      return init;
    }
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    return response.arrayBuffer().then((buffer) => {
      const body = new Uint8Array(buffer);
      return { status: response.status, headers: outHeaders, ...(body.byteLength > 0 ? { body } : {}) };
    });
  };
  return (request: HttpRequest): Promise<HttpResponseInit> => {
    // The HttpRequest's own method, headers and body, at the API's URL (functions-request.ts).
    const webRequest = new FunctionsRequest(request, apiUrl(request.url, prefix, basePath));
    return api.fetch(webRequest as unknown as Request, new ForwardedClientIp(request)).then(answer);
  };
}

/** Every method the Functions host routes; the API answers 405 itself where one does not apply. */
const ALL_METHODS: HttpMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Registers one HTTP trigger that serves every route of the API.
 *
 * @example
 * import { app } from "@azure/functions";
 * const incasso = await createIncasso({ databaseUrl: process.env.DATABASE_URL! });
 * registerIncassoFunction(app, incasso.api, { routePrefix: "api" });
 */
export function registerIncassoFunction(
  functionsApp: {
    http: (
      name: string,
      options: { route: string; methods: HttpMethod[]; authLevel: "anonymous"; handler: HttpHandler },
    ) => void;
  },
  api: IncassoApi,
  options: AzureFunctionsOptions & { name?: string } = {},
): void {
  functionsApp.http(options.name ?? "incasso", {
    route: "{*path}",
    methods: ALL_METHODS,
    authLevel: "anonymous",
    handler: createAzureFunctionsHandler(api, options),
  });
}
