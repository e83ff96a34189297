// An existing Express app that embeds the whole API: one createIncasso() and one app.use().
import { createIncasso } from "@incasso/app";
import { createHost } from "./app.mjs";

const incasso = await createIncasso();
const server = createHost(incasso.api).listen(
  Number(process.env.PORT ?? 3000),
  process.env.HOST ?? "127.0.0.1",
  () => {
    const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
    console.log(`express host listening on http://${address}:${port}/api/v1`);
  },
);
const stop = () => server.close(() => void incasso.stop().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
