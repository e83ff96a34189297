import {
  constructWebhookEvent,
  isWebhookVerificationError,
  MAX_WEBHOOK_BODY_BYTES,
  RecentEventIds,
  readWebhookBody,
  type WebhookEvent,
} from "@incasso/webhook-signing";

export interface WebhookHandlerOptions {
  /** The signing secret, or [new, old] while rotating. */
  secret: string | string[];
  /** Your work. Keep it short or queue it: the service expects a 2xx within a few seconds. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
}

/**
 * A web-standard handler (Request → Response) for incasso webhook deliveries: the shape that
 * Deno.serve, Bun.serve and Cloudflare Workers take. On Node it is served through srvx (server.ts);
 * only Node is tested here.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const seen = new RecentEventIds();
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/webhooks/incasso") return new Response(null, { status: 404 });
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });

    // The raw bytes, read once and at most 1 MiB of them: the body is read before the signature
    // can be checked, so anyone could otherwise make this handler buffer any amount. Not
    // request.json() (re-serialising changes the bytes) and not request.text() (it would replace
    // invalid UTF-8 instead of letting verification see it).
    const rawBody = await readWebhookBody(request);
    if (rawBody === null) {
      return problem(413, "payload_too_large", `The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes.`);
    }
    let event: WebhookEvent;
    try {
      event = constructWebhookEvent(rawBody, request.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → 500
      return problem(error.status, error.code, error.message);
    }
    // Delivery is at least once: a repeat of an event already handled is answered 204 without
    // running onEvent again. In memory only, as a sketch; production needs a durable store shared
    // by every instance, a unique key on the event id in your database (see RecentEventIds in @incasso/webhook-signing).
    await seen.runOnce(event.id, () => options.onEvent(event));
    return new Response(null, { status: 204 });
  };
}

/** An RFC 9457 problem response carrying a stable `code`. */
function problem(status: number, code: string, detail: string): Response {
  return Response.json(
    { type: "about:blank", title: "Webhook rejected", status, code, detail },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}
