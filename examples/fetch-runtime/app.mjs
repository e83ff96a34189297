/**
 * The API behind a plain fetch handler, as a fetch-style runtime (Deno, Bun, workers, srvx) takes
 * it: `export default { fetch }`. `api.fetch` answers with a promise of the Response. The kernel reads the client IP from the
 * runtime's request (`request.ip`, as srvx sets it) itself, and only where a route needs it.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @returns {{ fetch(request: Request): Response | Promise<Response> }}
 */
export function createHost(api) {
  return { fetch: (request) => api.fetch(request) };
}
