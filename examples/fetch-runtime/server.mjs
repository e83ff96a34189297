// The runtime-neutral kernel behind a fetch handler, with the store and the case system supplied by
// the host. No workers run here: on a fetch runtime they run elsewhere (`incasso worker` on the
// same PostgreSQL delivers webhooks and makes the 14-day letters).
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { createApi } from "@incasso/server";
import { answerHttpErrors } from "@incasso/server/node";
import { serve } from "srvx";
import { createHost } from "./app.mjs";

// The store with the built-in case system's tables (decision case-system-owns-its-migrations).
const store = await openCaseSystemStore(
  process.env.DATABASE_URL
    ? { databaseUrl: process.env.DATABASE_URL }
    : { dataDir: process.env.INCASSO_DATA_DIR ?? ".data" },
);
const api = createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) });
const server = serve({
  fetch: createHost(api).fetch,
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? "127.0.0.1",
  silent: true,
});
// srvx serves on a node:http server here: what node refuses before the fetch handler runs (a
// malformed request line, oversized headers, an Expect other than 100-continue) gets the API's
// problem+json too. Other runtimes (Deno, Bun, workers) answer those themselves.
if (server.node?.server) answerHttpErrors(server.node.server);
await server.ready();
console.log(`fetch runtime listening on ${new URL("api/v1", server.url)}`);
const stop = () =>
  void server
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
