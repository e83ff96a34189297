import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../api-error.js";
import { problemResponse } from "../problem.js";
import { requestIdFromHeader } from "../request-id.js";
import { rawProblem } from "./raw-problem.js";
import { sendWebResponse } from "./web-response.js";

/**
 * Options of {@link answerHttpErrors}.
 *
 * @example
 * answerHttpErrors(app.server, { clientErrors: false }); // keep Fastify's clientErrorHandler
 */
export interface AnswerHttpErrorsOptions {
  /**
   * Answer what node's parser refuses (`clientError`) too. Default true; false leaves the server's
   * own `clientError` listeners as they are (a host's own Fastify `clientErrorHandler`) and wires
   * only the unmet `Expect`.
   */
  clientErrors?: boolean;
}

/**
 * Makes a `node:http` server answer the requests node itself refuses before any handler runs with
 * the API's `application/problem+json`, as the reference server does (decision
 * server-http-edge-cases):
 *
 * - `checkExpectation`: an `Expect` other than `100-continue` gets 417 `expectation_failed` (RFC
 *   9110 §10.1.1) instead of node's bare 417 without a body; no route runs.
 * - `clientError`: a request node's parser refuses gets 400 `bad_request` (malformed request
 *   line), 431 `headers_too_large` (headers over node's limit) or 408 `request_timeout` (node's
 *   `headersTimeout` or `requestTimeout`), and the connection is closed.
 *
 * A host that owns its server (Express, Fastify's `app.server`) calls it once on that server; the
 * reference server (`createNodeServer`) calls it itself. It covers the whole server, the host's own
 * routes too, since node answers these before it knows which route a request is for. Listeners the
 * server already has for the two events are replaced, not joined: two answers on one socket would
 * corrupt it (Fastify installs its own `clientError` listener, whose answer is JSON of its own).
 * Calling it twice changes nothing. Returns the server, so it wraps `app.listen()`.
 *
 * @example
 * import { answerHttpErrors } from "@incasso/server/node";
 * const server = answerHttpErrors(app.listen(3000)); // Express
 * answerHttpErrors(fastify.server); // Fastify
 */
export function answerHttpErrors<S extends Server>(server: S, options: AnswerHttpErrorsOptions = {}): S {
  if (options.clientErrors ?? true) {
    server.removeAllListeners("clientError");
    server.on("clientError", answerClientError);
  }
  // node answers an Expect other than 100-continue with a bare 417 only while no listener for
  // this event exists; with one, the listener answers.
  server.removeAllListeners("checkExpectation");
  server.on("checkExpectation", answerExpectation);
  return server;
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  // A reset connection, or one whose answer has begun: nothing can be said on it any more.
  if (error.code === "ECONNRESET" || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(error));
}

function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return rawProblem(431, "headers_too_large", "The request headers are too large.");
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // node's headersTimeout or requestTimeout: the request did not arrive in time (RFC 9110
    // §15.5.9: 408, and the server closes the connection).
    return rawProblem(408, "request_timeout", "The request did not arrive within the server's time-out.");
  }
  return rawProblem(400, "bad_request", "The request could not be parsed as HTTP.");
}

function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  void sendWebResponse(res, expectationFailed(req));
}

function expectationFailed(req: IncomingMessage): Response {
  // The client's value is named when it is short, so a header of many KB is not copied back.
  const expect = req.headers.expect ?? "";
  const named = expect.length <= 64 ? `The expectation ${expect}` : "The expectation";
  const response = problemResponse(
    new ApiError({
      status: 417,
      code: "expectation_failed",
      detail: `${named} cannot be met: only Expect: 100-continue is understood.`,
    }),
  );
  // The headers of every answer (decision server-response-headers): the request's headers are
  // parsed here, so a client's own X-Request-Id is echoed by the same rule as everywhere.
  const incoming = req.headers["x-request-id"];
  response.headers.set("x-request-id", requestIdFromHeader(Array.isArray(incoming) ? incoming[0] : incoming));
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}
