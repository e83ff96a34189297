// An agency's host: the whole API with a plugin of its own (routes, order rules, a table, signed
// tokens beside the keys) and, with REDIS_URL, every process's rate limits counted on one Redis.
import { randomBytes } from "node:crypto";
import { createIncasso } from "@incasso/app";
import { createNodeServer } from "@incasso/server/node";
import { createClient } from "redis";
import { agencyPlugin } from "./agency-plugin.mjs";
import { redisRateLimiter } from "./redis-rate-limiter.mjs";

// Every process of the host must share the secret, or a token one issues is refused by another.
const tokenSecret = process.env.AGENCY_TOKEN_SECRET ?? randomBytes(32).toString("hex");
if (process.env.AGENCY_TOKEN_SECRET === undefined) {
  console.warn("agency: AGENCY_TOKEN_SECRET is not set; tokens are valid in this process only");
}
const perMinute = process.env.AGENCY_PER_MINUTE ? Number(process.env.AGENCY_PER_MINUTE) : undefined;
const agency = agencyPlugin({ tokenSecret, ...(perMinute ? { perMinute } : {}) });

// Without REDIS_URL the API counts as it does by default (the database, or memory when embedded).
// With the offline queue off, a lost connection fails a request's count at once (500, logged)
// instead of holding the request until Redis is back.
const redis = process.env.REDIS_URL
  ? await createClient({
      url: process.env.REDIS_URL,
      disableOfflineQueue: true,
      socket: { connectTimeout: 2000 },
    }).connect()
  : undefined;

const incasso = await createIncasso(undefined, {
  plugins: [agency.plugin],
  api: {
    authenticate: agency.authenticate,
    securitySchemes: agency.securitySchemes,
    ...(redis ? { rateLimiter: redisRateLimiter(redis) } : {}),
  },
});
const server = createNodeServer(incasso.api).listen(
  Number(process.env.PORT ?? 3000),
  process.env.HOST ?? "127.0.0.1",
  () => {
    const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
    console.log(`agency host listening on http://${address}:${port}${incasso.api.basePath}`);
  },
);
const stop = () =>
  server.close(
    () =>
      void incasso
        .stop()
        .then(() => redis?.quit())
        .then(() => process.exit(0)),
  );
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
