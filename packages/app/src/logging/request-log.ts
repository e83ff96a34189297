import type { CompletedRequest, Logger } from "@incasso/server";

/**
 * The `onResponse` hook that logs one line per request (decision operations-logs): message
 * `request`, with requestId, method, route (the pattern, never the raw path), status, durationMs
 * (to a tenth of a millisecond) and keyId when a key authenticated it. Never the key, a header, a
 * query or a body. Level info, error for a 5xx.
 *
 * @example
 * const api = createApi({ store, caseSystem, logger, onResponse: requestLog(logger) });
 */
export function requestLog(logger: Pick<Logger, "info" | "error">): (request: CompletedRequest) => void {
  return (r) => {
    const fields: Record<string, unknown> = {
      requestId: r.requestId,
      method: r.method,
      route: r.route,
      status: r.status,
      durationMs: Math.round(r.durationMs * 10) / 10,
    };
    if (r.keyId !== null) fields.keyId = r.keyId;
    if (r.status >= 500) logger.error("request", fields);
    else logger.info("request", fields);
  };
}
