// The shape of node's parsed header object, written here so the kernel imports nothing of node.
export type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

interface NodeBackedRequest {
  runtime?: { node?: { req?: { headers?: IncomingHttpHeaders } } };
}

/**
 * The header object node:http parsed for this request, when the Request is srvx's NodeRequest over
 * an IncomingMessage (the reference server, the Express and Fastify adapters): srvx documents the
 * IncomingMessage as `request.runtime.node.req`. Reading it directly skips srvx's Headers view,
 * which lower-cases each name and tests an absent one against the token grammar on every call.
 * Names are lower-case there; node joins repeated headers with ", " as Headers.get does, and its
 * parser refuses a repeated Content-Length or Transfer-Encoding itself.
 *
 * @example
 * nodeHeadersOf(request)?.["x-request-id"]; // "abc", or undefined off node or without the header
 */
export function nodeHeadersOf(request: Request): IncomingHttpHeaders | undefined {
  return (request as NodeBackedRequest).runtime?.node?.req?.headers;
}

/**
 * One request header by its lower-case name, as `Headers.get` answers it (`null` when absent).
 *
 * @example
 * requestHeader(request, "x-request-id"); // "abc" or null
 */
export function requestHeader(request: Request, lowerName: string): string | null {
  const headers = nodeHeadersOf(request);
  if (headers === undefined) return request.headers.get(lowerName);
  const value = headers[lowerName];
  if (value === undefined) return null;
  // Only set-cookie is an array in node's object; a request does not carry it, but join it as
  // Headers.get would.
  return typeof value === "string" ? value : value.join(", ");
}

/**
 * Whether the request declares content: a Content-Length above zero or a Transfer-Encoding
 * (RFC 9112 §6.3: a request has a body only when one of the two is present).
 *
 * @example
 * if (declaresRequestBody(request)) throw new ApiError({ status: 400, code: "body_not_allowed", detail: "..." });
 */
export function declaresRequestBody(request: Request): boolean {
  const headers = nodeHeadersOf(request);
  if (headers === undefined) {
    const length = request.headers.get("content-length");
    if (length !== null) return Number(length) > 0;
    return request.headers.has("transfer-encoding");
  }
  const length = headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return headers["transfer-encoding"] !== undefined;
}
