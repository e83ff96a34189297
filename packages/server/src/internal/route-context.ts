import type { RouteContext } from "../plugin.js";

/**
 * The per-request context every route, guard and interceptor sees. A class rather than an object
 * literal with getters: one shape for every request, and the response headers are only made when
 * something adds one (most requests add none).
 */
export class ApiRouteContext implements RouteContext {
  body: unknown = undefined;
  query: unknown = EMPTY;
  params: unknown = EMPTY;
  state: Record<string, unknown> = {};
  rawBody?: unknown;
  #headers: Headers | undefined = undefined;

  constructor(
    readonly request: Request,
    readonly url: URL,
    readonly clientIp: string | undefined,
    readonly requestId: string,
    readonly now: () => Date,
  ) {}

  get responseHeaders(): Headers {
    this.#headers ??= new Headers();
    return this.#headers;
  }

  /** The headers added so far, without making any. */
  addedHeaders(): Headers | undefined {
    return this.#headers;
  }
}

// Shared by requests without query or path parameters; frozen so no route can change it for others.
const EMPTY: Readonly<Record<string, string>> = Object.freeze({});
