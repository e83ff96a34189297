import { createNodeServer } from "@incasso/server/node";
import { startCaseFeed } from "./case-feed.mjs";
import { createHttpCaseSystem } from "./http-case-system.mjs";

export { startCaseFeed } from "./case-feed.mjs";
export { createHttpCaseSystem } from "./http-case-system.mjs";

/**
 * The host's transport: the API on node:http. What makes this host different is not here but in
 * its case system ({@link ownCaseSystem}), which createIncasso() is given instead of the built-in.
 *
 * @param {import("@incasso/server").IncassoApi} api
 * @returns {import("node:http").Server}
 */
export function createHost(api) {
  return createNodeServer(api);
}

/**
 * The agency's case service as the API's case system, for `createIncasso({ caseSystem })`: the
 * CaseSystem port over HTTP, and the change feed that reports what the service's handlers did
 * through `createCaseReporter` on the API's store. Start the feed once the store is open.
 *
 * @param {{ baseUrl: string, timeoutMs?: number, retries?: number, feedIntervalMs?: number }} options
 */
export function ownCaseSystem(options) {
  return {
    caseSystem: createHttpCaseSystem(options),
    /** @param {import("@incasso/case-system").CaseReporter} reporter */
    startFeed: (reporter) =>
      startCaseFeed({
        baseUrl: options.baseUrl,
        reporter,
        ...(options.feedIntervalMs === undefined ? {} : { intervalMs: options.feedIntervalMs }),
      }),
  };
}
