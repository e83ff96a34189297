// The API on node:http, composed by createIncasso: store, built-in case system, webhook dispatcher,
// letter runner, operator endpoint. PORT, HOST, DATABASE_URL or INCASSO_DATA_DIR configure it.
import { createIncasso } from "@incasso/app";
import { createHost } from "./app.mjs";

const incasso = await createIncasso();
const server = createHost(incasso.api);
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`standalone server listening on http://${address}:${port}/api/v1`);
});
const stop = () => server.close(() => void incasso.stop().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
