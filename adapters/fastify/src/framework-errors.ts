import { ApiError, requestIdFromHeader, toProblemDetails } from "@incasso/server";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

/**
 * Fastify answers requests its router cannot parse (malformed percent-encoding, a bad content
 * type header) before any plugin runs, with its own JSON. Pass this as the host's
 * `frameworkErrors` option so those answers are problem+json like the rest of the API.
 *
 * @example
 * const app = Fastify({ frameworkErrors: incassoFrameworkErrors });
 * await app.register(incassoFastify, { api, prefix: "/api/v1" });
 */
export function incassoFrameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const badUrl = error.code === "FST_ERR_BAD_URL";
  const problem = toProblemDetails(
    new ApiError({
      status: 400,
      code: badUrl ? "malformed_url" : "bad_request",
      detail: badUrl ? "The request path contains malformed percent-encoding." : error.message,
    }),
  );
  // The headers every answer of the API carries (decision server-response-headers).
  const incoming = request.headers["x-request-id"];
  const requestId = requestIdFromHeader(typeof incoming === "string" ? incoming : undefined);
  void reply
    .code(400)
    .header("content-type", "application/problem+json")
    .header("x-request-id", requestId)
    .header("x-content-type-options", "nosniff")
    .send(Buffer.from(JSON.stringify(problem)));
}
