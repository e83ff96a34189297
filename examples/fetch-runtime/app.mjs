/**
 * The API behind a plain fetch handler, as a fetch-style runtime (Deno, Bun, workers, srvx) takes
 * it: `export default { fetch }`. The client IP comes from the runtime's request when it has one.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @returns {{ fetch(request: Request): Promise<Response> }}
 */
export function createHost(api) {
  return {
    fetch: (request) => {
      const ip = /** @type {{ ip?: string }} */ (request).ip;
      return api.fetch(request, ip ? { clientIp: ip } : {});
    },
  };
}
