import type { Logger } from "@incasso/core";
import type { H3 } from "h3";
import type { RequestContext } from "../api-options.js";
import { principalOf } from "../auth.js";
import { type CompletedRequest, ORDER_CREATED_STATE_KEY } from "../completed-request.js";
import { requestIdFor } from "../request-id.js";
import { responseParts } from "../response-parts.js";
import type { AnsweredFacts } from "./anonymous-ping.js";
import type { ErrorFunnel } from "./error-funnel.js";
import type { IncassoRequestFacts } from "./request-facts.js";

/**
 * What {@link createRequestEntry} needs from the API.
 *
 * @example
 * const input: RequestEntryInput = { app, failed, logger };
 */
export interface RequestEntryInput {
  app: H3;
  failed: ErrorFunnel["failed"];
  logger: Logger;
  /** The early answer to GET /ping without a key (decision server-ping-fast-path), if on. */
  ping?: ((request: Request, facts: AnsweredFacts) => Response | undefined) | undefined;
  /** The completion report (decision operations-logs). */
  onResponse?: ((request: CompletedRequest) => void) | undefined;
}

/**
 * The API's entry point, `fetch` of IncassoApi.
 *
 * @example
 * const { fetch } = createRequestEntry({ app, failed, logger });
 */
export interface RequestEntry {
  fetch(request: Request, context?: RequestContext): Promise<Response>;
}

function isReplay(response: Response): boolean {
  const parts = responseParts(response);
  if (parts === undefined) return response.headers.get("idempotency-replayed") === "true";
  return parts.headers.some(([name, value]) => name === "idempotency-replayed" && value === "true");
}

/**
 * Where a request enters the API: the early ping answer or the router, a failure of either still
 * answered as a problem (never a throw), and the completion report to `onResponse`.
 *
 * @example
 * const entry = createRequestEntry({ app: createRouter(...), failed, logger });
 * const response = await entry.fetch(new Request("http://localhost/api/v1/ping"));
 */
export function createRequestEntry(input: RequestEntryInput): RequestEntry {
  const { app, failed, logger, ping, onResponse } = input;

  async function serve(
    request: Request,
    context: RequestContext | undefined,
    facts: IncassoRequestFacts,
  ): Promise<Response> {
    let requestId: string | undefined;
    try {
      const pong = ping?.(request, facts);
      if (pong !== undefined) return pong;
      requestId = requestIdFor(request);
      facts.incassoRequestId = requestId;
      facts.incassoClientIp = context?.clientIp;
      // The URL checks (414, malformed percent-encoding) run in every route, on the URL the router
      // parsed: h3 routes such URLs as they are (allowMalformedURL), and the route refuses them.
      return await app.request(request, undefined, facts as Record<string, unknown>);
    } catch (error) {
      return failed(request, requestId, error);
    }
  }

  // The completion report (decision operations-logs); a failing hook is logged, the response sent.
  function report(request: Request, facts: IncassoRequestFacts, response: Response, started: number): void {
    if (onResponse === undefined) return;
    try {
      const ctx = facts.incassoContext;
      const principal = ctx ? principalOf(ctx) : undefined;
      const order = ctx?.state[ORDER_CREATED_STATE_KEY] as CompletedRequest["orderCreated"] | undefined;
      onResponse({
        requestId: facts.incassoRequestId ?? response.headers.get("x-request-id") ?? "",
        method: request.method,
        route: facts.incassoRoute ?? null,
        status: response.status,
        durationMs: performance.now() - started,
        keyId: principal?.keyId ?? null,
        keyMode: principal?.mode ?? null,
        // From the parts when the answer has them: reading `headers` would build a Headers object
        // on every request, the cost the parts exist to avoid.
        replayed: isReplay(response),
        orderCreated: order ?? null,
      });
    } catch (error) {
      logger.error("onResponse hook failed", { error: String(error) });
    }
  }

  async function fetch(request: Request, context?: RequestContext): Promise<Response> {
    const facts: IncassoRequestFacts = {};
    // Without a hook, no clock is read and nothing is added to the request's path.
    if (onResponse === undefined) return serve(request, context, facts);
    const started = performance.now();
    const response = await serve(request, context, facts);
    report(request, facts, response, started);
    return response;
  }

  return { fetch };
}
