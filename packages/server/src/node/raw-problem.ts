import { ApiError } from "../api-error.js";
import { statusTitle, toProblemDetails } from "../problem.js";
import { newRequestId } from "../request-id.js";

/**
 * A whole HTTP/1.1 answer as bytes for the socket, for the moments node's request and response
 * objects are not there (the parser refused the request, a time-out fired before the headers were
 * complete, a connection over the cap): problem+json like every other error, and `Connection: close`
 * because the connection is ended right after.
 *
 * @example
 * socket.end(rawProblem(408, "request_timeout", "The request headers took too long."));
 */
export function rawProblem(
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify(toProblemDetails(new ApiError({ status, code, detail })));
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return (
    `HTTP/1.1 ${status} ${statusTitle(status)}\r\n` +
    "Content-Type: application/problem+json\r\n" +
    // As every problem of the API (problemResponse): an error is not to be stored and replayed.
    "Cache-Control: no-store\r\n" +
    // No request was parsed: no X-Request-Id of the client's can be read.
    `X-Request-Id: ${newRequestId()}\r\n` +
    "X-Content-Type-Options: nosniff\r\n" +
    extra +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}
