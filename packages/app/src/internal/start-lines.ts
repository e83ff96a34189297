import { issueApiKey } from "@incasso/core";
import type { Logger } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import { showFirstKey } from "./first-key.js";

/**
 * What a host of `createIncasso()` is told at start (issue 32, item 3), as `incasso serve` tells
 * it: where the API, the pages and the console are, and on an empty embedded data directory a test
 * key, made now and shown once. The host owns the listening, so the URL is the API's public URL
 * when one is set, else `http://localhost:PORT` with PORT from the environment (3000 without it, the
 * port of the README's hosts).
 *
 * @example
 * await announceStart({ store, logger, basePath: "/api/v1", pages: true, console: true, env: process.env });
 */
export async function announceStart(parts: {
  store: SqlStore;
  logger: Logger;
  basePath: string;
  publicUrl?: string | undefined;
  pages: boolean;
  console: boolean;
  env: Record<string, string | undefined>;
}): Promise<void> {
  const { store, logger, basePath } = parts;
  // PORT 0 (any free port) names no port a person could use: then the README's 3000.
  const port = Number(parts.env.PORT);
  const origin = parts.publicUrl
    ? new URL(parts.publicUrl).origin
    : `http://localhost:${Number.isInteger(port) && port > 0 && port <= 65535 ? port : 3000}`;
  const url = `${origin}${basePath}`;
  logger.info(`incasso ready: the API at ${url} once your server listens there`, { url });
  // Made only where serve makes one: an embedded data directory without any key yet.
  if (store.engine === "pglite" && (await store.apiKeys.count()) === 0) {
    const { key } = await issueApiKey(store, { organisation: "Demo", mode: "test" });
    showFirstKey(logger, key, url);
  } else logger.info(`try: curl ${url}/ping`);
  if (parts.pages) logger.info(`pages: API reference ${url}/docs; WIK and court pages ${origin}/tools`);
  if (parts.console) logger.info(`console: ${origin}/console`);
}
