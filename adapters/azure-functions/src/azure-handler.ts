import type { HttpHandler, HttpMethod, HttpRequest, HttpResponseInit } from "@azure/functions";
import { type IncassoApi, responseParts } from "@incasso/server";

const encoder = new TextEncoder();

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

function stripPrefix(pathname: string, routePrefix: string): string {
  const prefix = `/${routePrefix.replace(/^\/+|\/+$/g, "")}`;
  if (prefix === "/") return pathname;
  if (pathname === prefix) return "/";
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname;
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
  const routePrefix = options.routePrefix ?? "api";
  return async (request: HttpRequest): Promise<HttpResponseInit> => {
    const incoming = new URL(request.url);
    const url = new URL(
      api.basePath + stripPrefix(incoming.pathname, routePrefix) + incoming.search,
      incoming,
    );
    const headers = new Headers();
    request.headers.forEach((value, name) => {
      headers.append(name, value);
    });
    const withBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    const response = await api.fetch(
      new Request(url, {
        method: request.method,
        headers,
        ...(withBody ? { body: request.body as ReadableStream, duplex: "half" } : {}),
      } as RequestInit),
      forwarded ? { clientIp: forwarded.replace(/:\d+$/, "") } : {},
    );
    const outHeaders: Record<string, string> = {};
    const parts = responseParts(response);
    if (parts !== undefined) {
      // The API's common answer, from its parts: no body stream to read.
      for (const [name, value] of parts.headers) outHeaders[name] = value;
      const bytes = parts.body === null ? undefined : encoder.encode(parts.body);
      return {
        status: parts.status,
        headers: outHeaders,
        ...(bytes && bytes.byteLength > 0 ? { body: bytes } : {}),
      };
    }
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    const body = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: outHeaders, ...(body.byteLength > 0 ? { body } : {}) };
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
