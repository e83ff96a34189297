/**
 * An answer of the API as its parts: status, header pairs (lower-case names) and a string body.
 *
 * @example
 * const parts: ResponseParts = { status: 200, headers: [["content-type", "application/json; charset=utf-8"]], body: "{}" };
 */
export interface ResponseParts {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  /** The body as sent; null for none (HEAD). */
  readonly body: string | null;
}

// The parts ride on the Response itself, under a symbol of the global registry (so a second copy of
// this package reads them too): a WeakMap entry per answer cost about a microsecond of CPU per
// request in insertion and in the garbage collector's handling of its weak keys; a property costs
// a few nanoseconds.
const PARTS = Symbol.for("incasso.responseParts");

type WithParts = Response & { [PARTS]?: ResponseParts };

/**
 * Records the parts of a Response the API built itself, so a transport can write them without
 * building a web Headers object and reading the body as a stream (which costs several µs per
 * request on node). Called by the kernel on its hot path; the Response itself stays the source of
 * truth for any other reader.
 *
 * @example
 * const response = new Response(body, { status: 200, headers });
 * rememberResponseParts(response, { status: 200, headers, body });
 */
export function rememberResponseParts(response: Response, parts: ResponseParts): Response {
  (response as WithParts)[PARTS] = parts;
  return response;
}

/**
 * The parts of a Response the API built itself (a JSON answer of a route), or undefined for any
 * other Response, which is then read the standard way. Transports (the node bridge, Fastify, Azure
 * Functions) use it to write the common answer at once.
 *
 * @example
 * const parts = responseParts(response);
 * if (parts) reply.code(parts.status).send(parts.body);
 */
export function responseParts(response: Response): ResponseParts | undefined {
  return (response as WithParts)[PARTS];
}
