import {
  constructWebhookEvent,
  isWebhookVerificationError,
  RecentEventIds,
  type WebhookEvent,
} from "@incasso/webhook-signing";
import express, { type Express, type RequestHandler } from "express";

export interface WebhookOptions {
  /** The signing secret, or [new, old] while rotating. */
  secret: string | string[];
  /** Your work. Keep it short or queue it: the service expects a 2xx within a few seconds. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
}

/**
 * The webhook route's handlers: express.raw() keeps the body as a Buffer for this route only
 * (any content type, so a missing or unusual Content-Type cannot leave the body unread), then
 * the signature is checked against exactly those bytes.
 */
export function incassoWebhook(options: WebhookOptions): RequestHandler[] {
  const seen = new RecentEventIds();
  const handle: RequestHandler = async (req, res) => {
    // A request without any body (no Content-Length, no Transfer-Encoding) is left with
    // req.body undefined by express.raw(): that is an empty body, verified like any other, so it
    // gets the normal 400 rather than the configuration alarm below.
    const rawBody: unknown = req.body === undefined ? Buffer.alloc(0) : req.body;
    if (!Buffer.isBuffer(rawBody)) {
      // A JSON parser (app.use(express.json())) ran before this route and threw the raw bytes
      // away; a re-serialised object never matches the signature. Mount this route first.
      res
        .status(500)
        .json({ code: "body_already_parsed", detail: "Mount the webhook route before express.json()." });
      return;
    }
    let event: WebhookEvent;
    try {
      event = constructWebhookEvent(rawBody, req.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → Express answers 500
      res
        .status(error.status)
        .type("application/problem+json")
        .send(
          JSON.stringify({
            type: "about:blank",
            title: "Webhook rejected",
            status: error.status,
            code: error.code,
            detail: error.message,
          }),
        );
      return;
    }
    // Delivery is at least once: a repeat of an event already handled is answered 204 without
    // running onEvent again. In memory only, as a sketch; production needs a durable store shared
    // by every instance, a unique key on the event id in your database (see RecentEventIds in @incasso/webhook-signing).
    await seen.runOnce(event.id, () => options.onEvent(event));
    res.status(204).end();
  };
  return [express.raw({ type: () => true, limit: "1mb" }), handle];
}

/** An app with the webhook route first and JSON parsing for everything after it. */
export function createApp(options: WebhookOptions): Express {
  const app = express();
  app.post("/webhooks/incasso", ...incassoWebhook(options));
  app.use(express.json());
  return app;
}
