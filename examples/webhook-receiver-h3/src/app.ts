import {
  constructWebhookEvent,
  isWebhookVerificationError,
  type WebhookEvent,
} from "@incasso/webhook-signing";
import { H3 } from "h3";

export interface WebhookOptions {
  /** The signing secret, or [new, old] while rotating. */
  secret: string | string[];
  /** Your work. Keep it short or queue it: the service expects a 2xx within a few seconds. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
}

/**
 * An h3 v2 app with the webhook route. In h3 v2 `event.req` is a web Request, so the raw body is
 * `event.req.arrayBuffer()`; h3's readBody() would parse the JSON and lose the exact bytes.
 */
export function createApp(options: WebhookOptions): H3 {
  return new H3().post("/webhooks/incasso", async (event) => {
    const rawBody = new Uint8Array(await event.req.arrayBuffer());
    let verified: WebhookEvent;
    try {
      verified = constructWebhookEvent(rawBody, event.req.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → h3 answers 500
      return Response.json(
        {
          type: "about:blank",
          title: "Webhook rejected",
          status: error.status,
          code: error.code,
          detail: error.message,
        },
        { status: error.status, headers: { "content-type": "application/problem+json" } },
      );
    }
    await options.onEvent(verified);
    return new Response(null, { status: 204 });
  });
}
