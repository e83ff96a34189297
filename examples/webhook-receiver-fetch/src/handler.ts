import {
  constructWebhookEvent,
  isWebhookVerificationError,
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
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/webhooks/incasso") return new Response(null, { status: 404 });
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });

    // The raw bytes, read once. Not request.json() (re-serialising changes the bytes) and not
    // request.text() (it would replace invalid UTF-8 instead of letting verification see it).
    const rawBody = new Uint8Array(await request.arrayBuffer());
    let event: WebhookEvent;
    try {
      event = constructWebhookEvent(rawBody, request.headers, options.secret);
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error; // configuration bug → 500
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
    await options.onEvent(event);
    return new Response(null, { status: 204 });
  };
}
