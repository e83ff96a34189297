import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Leaves every request body of the plugin's own routes unread, as the raw byte stream, for the API
 * to read: the API enforces its own content types, size limits (40 MB for orders, counted while
 * streaming; 64 KiB for the console's forms) and errors, exactly as on every other transport.
 * Fastify itself parses only JSON and plain text, and refuses other bodies (the console's
 * `application/x-www-form-urlencoded` forms among them) with a 415 of its own. Call it in an
 * encapsulated plugin (not wrapped in fastify-plugin), so the host's other routes keep Fastify's
 * parsers.
 *
 * @example
 * const plugin: FastifyPluginAsync = async (fastify) => {
 *   keepRawBody(fastify, handler);
 *   fastify.all("/*", handler);
 * };
 */
export function keepRawBody(
  fastify: FastifyInstance,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
  // Fastify refuses a Content-Type it cannot parse (empty, or two joined by a comma) with a 415 of
  // its own JSON before the route runs. The body is still unread, so the API judges the request
  // itself, as on every other transport: 415 problem+json for content that is not JSON, or no
  // complaint where the route needs no body. Other errors go to the host's error handler.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return handler(request, reply);
    throw error;
  });
}
