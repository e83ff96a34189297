import {
  constructWebhookEvent,
  isWebhookVerificationError,
  RecentEventIds,
  type WebhookEvent,
} from "@incasso/webhook-signing";
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from "fastify";

export interface WebhookOptions {
  /** The signing secret, or [new, old] while rotating. */
  secret: string | string[];
  /** Your work. Keep it short or queue it: the service expects a 2xx within a few seconds. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
}

/**
 * The webhook route as an encapsulated plugin: inside it, every content type is read as a raw
 * Buffer instead of being JSON-parsed, so the signature is checked against exactly the bytes
 * sent. Routes outside the plugin keep Fastify's normal JSON parsing.
 */
export const incassoWebhook: FastifyPluginAsync<WebhookOptions> = async (scope, options) => {
  const seen = new RecentEventIds();
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  scope.post("/webhooks/incasso", async (request, reply) => {
    // Fastify runs no content-type parser for a request without any body (no Content-Length, no
    // Transfer-Encoding) and leaves request.body undefined: that is an empty body, verified like
    // any other, so it gets the normal 400 rather than a 500 from the raw-body check.
    const rawBody = request.body === undefined ? Buffer.alloc(0) : (request.body as Buffer);
    let event: WebhookEvent;
    try {
      event = constructWebhookEvent(rawBody, request.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → Fastify answers 500
      return reply.code(error.status).type("application/problem+json").send({
        type: "about:blank",
        title: "Webhook rejected",
        status: error.status,
        code: error.code,
        detail: error.message,
      });
    }
    // Delivery is at least once: a repeat of an event already handled is answered 204 without
    // running onEvent again. In memory only, as a sketch; production needs a durable store shared
    // by every instance, a unique key on the event id in your database (see RecentEventIds in @incasso/webhook-signing).
    await seen.runOnce(event.id, () => options.onEvent(event));
    return reply.code(204).send();
  });
};

/** An app with the webhook plugin registered. */
export function createApp(options: WebhookOptions): FastifyInstance {
  const app = Fastify();
  app.register(incassoWebhook, options);
  return app;
}
