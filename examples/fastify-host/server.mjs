// An existing Fastify app that embeds the whole API: one createIncasso() and one app.register().
import { createIncasso } from "@incasso/app";
import { createHost } from "./app.mjs";

const incasso = await createIncasso();
const app = await createHost(incasso.api);
const address = await app.listen({
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? "127.0.0.1",
});
console.log(`fastify host listening on ${address}/api/v1`);
const stop = () =>
  void app
    .close()
    .then(() => incasso.stop())
    .then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
