import type { H3Event } from "h3";
import { requestIdFor } from "../request-id.js";
import { ApiRouteContext } from "./route-context.js";

/**
 * What `fetch` hands the router for each request, read once before routing: h3 keeps this object
 * as the event's context (and adds its own `params` to it).
 *
 * @example
 * const facts: IncassoRequestFacts = { incassoRequestId: "r-1", incassoClientIp: "203.0.113.7" };
 */
export interface IncassoRequestFacts {
  incassoRequestId?: string;
  incassoClientIp?: string | undefined;
  /** The matched route's pattern (set by its handler), for the completion report. */
  incassoRoute?: string;
  /** The request's route context, whose state holds the principal. */
  incassoContext?: ApiRouteContext;
}

/**
 * Makes a request's route context from its h3 event and the facts read before routing, and keeps
 * it in the facts for the completion report.
 *
 * @example
 * const contextFor = routeContextMaker(() => new Date());
 * const ctx = contextFor(event); // ctx.requestId, ctx.clientIp, ctx.now()
 */
export function routeContextMaker(now: () => Date): (event: H3Event) => ApiRouteContext {
  return (event) => {
    const facts = event.context as IncassoRequestFacts;
    const ctx = new ApiRouteContext(
      event.req,
      event.url,
      facts.incassoClientIp ?? (event.req as { ip?: string }).ip,
      facts.incassoRequestId ?? requestIdFor(event.req),
      now,
    );
    facts.incassoContext = ctx;
    return ctx;
  };
}
