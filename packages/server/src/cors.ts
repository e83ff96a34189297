import type { RouteDefinition } from "./plugin.js";
import { rememberResponseParts, responseParts } from "./response-parts.js";

/**
 * Which web pages on other origins may call the API from a browser (decision server-cors).
 *
 * @example
 * const cors: CorsOptions = { origins: ["https://tools.example.nl"], protectedOrigins: ["https://portal.example.nl"] };
 */
export interface CorsOptions {
  /**
   * Origins allowed on the public endpoints (GET /ping, GET /openapi.json, the public tools):
   * `"*"` (the default) for any, or a list such as `["https://tools.example.nl"]`; `[]` for none.
   */
  origins?: "*" | readonly string[];
  /**
   * Origins allowed on the protected endpoints too, with the `Authorization` and `Idempotency-Key`
   * headers. Default none: an API key does not belong in a web page, so an operator names each
   * origin that may send one.
   */
  protectedOrigins?: readonly string[];
  /** How long a browser may keep a preflight answer (`Access-Control-Max-Age`); default 600 s. */
  maxAgeSeconds?: number;
}

/**
 * The error a malformed CORS origin gets: an origin is exactly `scheme://host[:port]`, as a browser
 * sends it in `Origin`. Recognise it by `code`.
 *
 * @example
 * try { parseCorsOrigins("https://example.nl/"); } catch (error) { if (isCorsOptionError(error)) console.error(error.message); }
 */
export class CorsOptionError extends Error {
  readonly code = "invalid_cors_origin" as const;
  /** The value that is not an origin. */
  readonly origin: string;
  constructor(origin: string, message: string) {
    super(message);
    this.name = "CorsOptionError";
    this.origin = origin;
  }
}

/**
 * Whether a value is a {@link CorsOptionError}, by its code.
 *
 * @example
 * if (isCorsOptionError(error)) console.error(`not an origin: ${error.origin}`);
 */
export function isCorsOptionError(error: unknown): error is CorsOptionError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "invalid_cors_origin" &&
    typeof (error as { origin?: unknown }).origin === "string"
  );
}

function checkOrigin(origin: string): string {
  let serialised: string | undefined;
  try {
    serialised = new URL(origin).origin;
  } catch {
    serialised = undefined;
  }
  // A browser compares the serialised origin byte for byte (Fetch, "CORS check"), so anything
  // else (a path, a trailing slash, upper case) would never match; refuse it at start-up.
  if (serialised === undefined || serialised === "null" || serialised !== origin) {
    throw new CorsOptionError(
      origin,
      `"${origin}" is not an origin: write scheme://host[:port] with nothing after it` +
        (serialised && serialised !== "null" ? `, such as ${serialised}` : "") +
        ".",
    );
  }
  return origin;
}

/**
 * Reads a list of origins as the CLI and INCASSO_CORS_ORIGINS write it: `*` for any, origins
 * separated by commas, or an empty string for none.
 *
 * @throws {CorsOptionError} (`code` `invalid_cors_origin`) for an entry that is not an origin.
 *
 * @example
 * parseCorsOrigins("*"); // "*"
 * parseCorsOrigins("https://a.example, https://b.example:8443"); // ["https://a.example", "https://b.example:8443"]
 */
export function parseCorsOrigins(value: string): "*" | string[] {
  const trimmed = value.trim();
  if (trimmed === "*") return "*";
  return trimmed
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map(checkOrigin);
}

// Response headers a page may read: the request id for support, and what the rate limit and
// idempotency machinery tell a client (spec, Rate limits and Idempotency).
const EXPOSE =
  "X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Location, Idempotency-Replayed";
const PUBLIC_HEADERS = "Content-Type, X-Request-Id";
const KEY_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id";

/** Header pairs to add to one response. */
export type HeaderPairs = [string, string][];

/**
 * The CORS decisions of one API, made once from its options (internal to createApi).
 */
export interface CorsPolicy {
  /** Whether any route gets CORS headers at all. */
  readonly enabled: boolean;
  /** Headers of an actual (non-preflight) response of `route` to a request from `origin`. */
  actual(route: RouteDefinition, origin: string): HeaderPairs;
  /**
   * The headers of a positive preflight answer for `method` on a path whose routes are `routes`,
   * or undefined when the origin may not make that request.
   */
  preflight(routes: readonly RouteDefinition[], origin: string, method: string): HeaderPairs | undefined;
}

/**
 * Builds the CORS policy from `createApi({ cors })`; `false` turns CORS off.
 *
 * @throws {CorsOptionError} for an origin in the options that is not an origin.
 *
 * @example
 * const policy = corsPolicy({ origins: "*" });
 * policy.actual(pingRoute, "https://a.example"); // [["access-control-allow-origin", "*"], ...]
 */
export function corsPolicy(options: CorsOptions | false | undefined): CorsPolicy {
  if (options === false) {
    return { enabled: false, actual: () => [], preflight: () => undefined };
  }
  const origins = options?.origins ?? "*";
  const anyOrigin = origins === "*";
  const publicOrigins = new Set(origins === "*" ? [] : origins.map(checkOrigin));
  const protectedOrigins = new Set((options?.protectedOrigins ?? []).map(checkOrigin));
  const maxAge = String(Math.max(0, Math.floor(options?.maxAgeSeconds ?? 600)));

  /** The Access-Control-Allow-Origin value for this route and origin, or undefined. */
  function allowOrigin(route: RouteDefinition, origin: string): string | undefined {
    if (route.root) return undefined;
    if (protectedOrigins.has(origin)) return origin;
    if (route.auth === "required") return undefined;
    if (anyOrigin) return "*";
    return publicOrigins.has(origin) ? origin : undefined;
  }

  return {
    enabled: true,
    actual(route, origin) {
      // Vary: Origin whenever the answer depends on the origin, so a shared cache never hands one
      // origin's answer to another (Fetch, "CORS protocol and HTTP caches").
      if (route.root) return [];
      const allowed = allowOrigin(route, origin);
      if (allowed === undefined) return [["vary", "Origin"]];
      return [
        ["access-control-allow-origin", allowed],
        ["access-control-expose-headers", EXPOSE],
        ["vary", "Origin"],
      ];
    },
    preflight(routes, origin, method) {
      const wanted = method === "HEAD" ? "GET" : method;
      const route = routes.find((r) => r.method === wanted);
      if (route === undefined) return undefined;
      const allowed = allowOrigin(route, origin);
      if (allowed === undefined) return undefined;
      const methods = routes
        .filter((r) => allowOrigin(r, origin) !== undefined)
        .flatMap((r) => (r.method === "GET" ? ["GET", "HEAD"] : [r.method]));
      return [
        ["access-control-allow-origin", allowed],
        ["access-control-allow-methods", methods.join(", ")],
        ["access-control-allow-headers", protectedOrigins.has(origin) ? KEY_HEADERS : PUBLIC_HEADERS],
        ["access-control-max-age", maxAge],
        ["vary", "Origin"],
      ];
    },
  };
}

/**
 * Adds header pairs to a response; `vary` is merged with a Vary the response already has.
 *
 * @example
 * withCorsHeaders(response, [["vary", "Origin"]]);
 */
export function withCorsHeaders(response: Response, pairs: HeaderPairs): Response {
  if (pairs.length === 0) return response;
  const apply = (headers: Headers) => {
    for (const [name, value] of pairs) {
      if (name === "vary") {
        const vary = headers.get("vary");
        if (vary === null) headers.set("vary", value);
        else if (
          !vary
            .toLowerCase()
            .split(/\s*,\s*/)
            .includes(value.toLowerCase())
        ) {
          headers.set("vary", `${vary}, ${value}`);
        }
      } else headers.set(name, value);
    }
  };
  try {
    apply(response.headers);
    // A route's JSON answer is written by the transports from its parts: they must carry the
    // headers added here too.
    const parts = responseParts(response);
    if (parts !== undefined) rememberResponseParts(response, { ...parts, headers: [...response.headers] });
    return response;
  } catch {
    // A Response with immutable headers (one returned by fetch) is copied once.
    const copy = new Response(response.body, response);
    apply(copy.headers);
    return copy;
  }
}
