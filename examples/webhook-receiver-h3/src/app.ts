import {
  constructWebhookEvent,
  isWebhookVerificationError,
  MAX_WEBHOOK_BODY_BYTES,
  RecentEventIds,
  readWebhookBody,
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
 * read from its stream (readWebhookBody, at most 1 MiB); h3's readBody() would parse the JSON and lose
 * the exact bytes.
 */
export function createApp(options: WebhookOptions): H3 {
  const seen = new RecentEventIds();
  return new H3().post("/webhooks/incasso", async (event) => {
    // Capped: the body is read before the signature can be checked, so anyone could otherwise
    // make this route buffer any amount.
    const rawBody = await readWebhookBody(event.req);
    if (rawBody === null) {
      return problem(413, "payload_too_large", `The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes.`);
    }
    let verified: WebhookEvent;
    try {
      verified = constructWebhookEvent(rawBody, event.req.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → h3 answers 500
      return problem(error.status, error.code, error.message);
    }
    // Delivery is at least once: a repeat of an event already handled is answered 204 without
    // running onEvent again. In memory only, as a sketch; production needs a durable store shared
    // by every instance, a unique key on the event id in your database (see RecentEventIds in @incasso/webhook-signing).
    await seen.runOnce(verified.id, () => options.onEvent(verified));
    return new Response(null, { status: 204 });
  });
}

/** An RFC 9457 problem response carrying a stable `code`. */
function problem(status: number, code: string, detail: string): Response {
  return Response.json(
    { type: "about:blank", title: "Webhook rejected", status, code, detail },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}
