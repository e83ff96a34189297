// The API on node:http with the agency's own case system: createIncasso() opens the store and runs
// the webhook dispatcher as for every host, but places orders through the case service at
// CASE_SERVICE_URL (default http://127.0.0.1:4100; start it with `node case-service.mjs`). PORT,
// HOST, DATABASE_URL or INCASSO_DATA_DIR configure the API as in every example host.
import { createIncasso } from "@incasso/app";
import { createCaseReporter } from "@incasso/case-system";
import { createHost, ownCaseSystem } from "./app.mjs";

const own = ownCaseSystem({ baseUrl: process.env.CASE_SERVICE_URL ?? "http://127.0.0.1:4100" });
const incasso = await createIncasso(undefined, { caseSystem: own.caseSystem });
// What the service's handlers do (payments, tasks, status) comes back as webhook events.
const feed = own.startFeed(createCaseReporter({ store: incasso.store }));
const server = createHost(incasso.api);
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`own-case-system host listening on http://${address}:${port}/api/v1`);
});
const stop = () =>
  server.close(
    () =>
      void feed
        .stop()
        .then(() => incasso.stop())
        .then(() => process.exit(0)),
  );
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
