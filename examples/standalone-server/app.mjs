import { createApi, listen } from "@incasso/server";

/**
 * Starts the API on node:http. Everything a host needs is `createApi()` and a transport.
 *
 * @param {{ port?: number, host?: string }} [options]
 */
export async function startServer(options = {}) {
  const api = createApi();
  return listen(api, { port: options.port ?? 3000, host: options.host ?? "127.0.0.1" });
}
