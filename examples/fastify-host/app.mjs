import { answerHttpErrors, incassoFastify, incassoFastifyRootRoutes } from "@incasso/fastify";
import Fastify from "fastify";

/**
 * The host's own Fastify app, with the incasso API registered under `prefix` (default /api/v1).
 * The host's hooks run for the API's answers too; its JSON parser stays for its own routes.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @param {{ prefix?: string }} [options]
 */
export async function createHost(api, options = {}) {
  const app = Fastify();
  // node answers a malformed request line, oversized headers and an `Expect` other than
  // 100-continue itself, before Fastify routes the request (Fastify's own clientError answer is
  // JSON of its own): the API's problem+json instead.
  answerHttpErrors(app.server);
  app.addHook("onSend", async (_request, reply) => {
    reply.header("x-host-hook", "onSend");
  });
  app.get("/host/health", async () => ({ host: true }));
  app.post("/internal/notes", async (request, reply) => reply.code(201).send({ saved: request.body }));
  // The probes (GET /healthz, GET /readyz) at the host's root, where a load balancer looks.
  await app.register(incassoFastifyRootRoutes, { api });
  await app.register(incassoFastify, { api, prefix: options.prefix ?? "/api/v1" });
  return app;
}
