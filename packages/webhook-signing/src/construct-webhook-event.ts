import { WebhookVerificationError } from "./errors.js";
import { parseWebhookEvent } from "./parse-webhook-event.js";
import { type VerifyWebhookOptions, verifyWebhook } from "./verify-webhook.js";
import type { WebhookEvent } from "./webhook-event.js";
import type { WebhookHeadersInput } from "./webhook-headers.js";

/**
 * Receiver side in one call: {@link verifyWebhook}, then {@link parseWebhookEvent}. Nothing in
 * the body is trusted or even parsed before the signature has been checked.
 *
 * When X-Service-Event is present it must equal the body's `type`: the header is not signed, so a
 * disagreement means tampering or a sender fault, and a receiver that routed on the header would
 * be misled (docs/decisions/webhook-signing-event-header.md).
 *
 * @param rawBody - The raw request body: the exact text or bytes received.
 * @param headers - The request headers: a web `Headers` or a record such as Node's `req.headers`.
 * @param secret - The signing secret, or several during a rotation.
 * @param options - Tolerance and clock, as for {@link verifyWebhook}.
 * @returns The verified event.
 * @throws {@link WebhookVerificationError}: the codes of {@link verifyWebhook}, plus
 *   `invalid_payload` and `event_type_mismatch`; answer 400.
 * @throws {@link WebhookArgumentError} (`invalid_argument`) on unusable configuration; answer 500.
 *
 * @example
 * ```ts
 * import { constructWebhookEvent, isWebhookVerificationError } from "@incasso/webhook-signing";
 * export async function handleWebhook(request: Request): Promise<Response> {
 *   const rawBody = new Uint8Array(await request.arrayBuffer());
 *   try {
 *     const event = constructWebhookEvent(rawBody, request.headers, process.env.SIGNING_SECRET!);
 *     if (event.type === "case.closed") console.log("closed:", event.data.case_number);
 *     return new Response(null, { status: 204 });
 *   } catch (error) {
 *     if (isWebhookVerificationError(error)) return Response.json({ code: error.code }, { status: 400 });
 *     throw error;
 *   }
 * }
 * ```
 */
export function constructWebhookEvent(
  rawBody: string | Uint8Array,
  headers: WebhookHeadersInput,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): WebhookEvent {
  const { eventType } = verifyWebhook(rawBody, headers, secret, options);
  const event = parseWebhookEvent(rawBody);
  if (eventType !== undefined && eventType !== event.type) {
    throw new WebhookVerificationError(
      "event_type_mismatch",
      `X-Service-Event "${eventType}" differs from the signed body's type "${event.type}".`,
      { header: "x-service-event" },
    );
  }
  return event;
}
