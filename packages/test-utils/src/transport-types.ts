import type { IncassoApi } from "@incasso/server";

/**
 * A running transport: send a request to a path below the API's base path and get the response.
 *
 * @example
 * const res = await running.request("/ping");
 */
export interface RunningTransport {
  /** Sends a request for `path` (below the base path, with query) exactly as a client would. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Sends a request for a path at the host's root (GET /healthz, GET /readyz); absent where the host
   * cannot serve the root (Azure Functions: every function is below its route prefix).
   */
  requestRoot?(path: string, init?: RequestInit): Promise<Response>;
  /** Host and port for raw-socket tests; absent for in-process transports. */
  address?: { host: string; port: number; prefix: string };
  close(): Promise<void>;
}

/**
 * A way to serve the API: in-process, node:http, Express, Fastify or Azure Functions.
 *
 * @example
 * for (const t of transports) { const running = await t.start(api); ... }
 */
export interface Transport {
  name: string;
  start(api: IncassoApi): Promise<RunningTransport>;
}
