import { responseParts } from "@incasso/server";
import { closeAfterUnreadBody } from "@incasso/server/node";
import type { FastifyReply } from "fastify";

/**
 * The API's answer through Fastify's reply, so the host's onSend and onResponse hooks see it.
 * Bytes keep the API's Content-Type exactly: Fastify adds "; charset=utf-8" to a string body's
 * type when it has none (application/problem+json has none). Used by both plugins of this package.
 *
 * @example
 * const answer = await api.fetch(request);
 * return sendReply(reply, answer);
 */
export function sendReply(reply: FastifyReply, response: Response): FastifyReply | Promise<FastifyReply> {
  closeAfterUnreadBody(reply.raw);
  const parts = responseParts(response);
  if (parts !== undefined) {
    // The API's common answer, from its parts: no web Headers object and no body stream to read.
    reply.code(parts.status);
    for (const [name, value] of parts.headers) reply.header(name, value);
    // A string keeps its Content-Type: the API's JSON answers name their charset.
    return reply.send(parts.body ?? undefined) as FastifyReply;
  }
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  if (response.body === null) return reply.send() as FastifyReply;
  return response.arrayBuffer().then((bytes) => reply.send(Buffer.from(bytes)) as FastifyReply);
}
