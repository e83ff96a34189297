/**
 * Largest webhook body {@link readWebhookBody} reads by default: 1 MiB, the same as Express's
 * `express.raw({ limit: "1mb" })` and Fastify's default `bodyLimit`. Real deliveries are a few
 * hundred bytes (spec, Events, "Body (WebhookEvent)"); the cap only stops a stranger from making the
 * receiver buffer an unbounded body before the signature has been checked.
 *
 * @example
 * const body = await readWebhookBody(request, MAX_WEBHOOK_BODY_BYTES);
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/**
 * Reads a web `Request`'s raw body for verification (fetch handlers, h3), at most `maxBytes` of
 * it, or returns `null` when it is larger. Verify these exact bytes: a body parsed and serialised
 * again no longer matches its signature.
 *
 * A Content-Length over the cap is refused before anything is read. The bytes are also counted
 * while streaming, because a chunked body has no Content-Length and a wrong one is not to be
 * trusted: reading stops, and the stream is cancelled, as soon as the count passes the cap.
 *
 * @example
 * const rawBody = await readWebhookBody(request);
 * if (rawBody === null) return new Response(null, { status: 413 });
 * const event = constructWebhookEvent(rawBody, request.headers, secret);
 */
export async function readWebhookBody(
  request: Request,
  maxBytes: number = MAX_WEBHOOK_BODY_BYTES,
): Promise<Uint8Array | null> {
  const declared = request.headers.get("content-length");
  // Digits only: anything else is left to the stream count (RFC 9110 §8.6: 1*DIGIT).
  if (declared !== null && /^[0-9]+$/.test(declared) && Number(declared) > maxBytes) return null;
  if (request.body === null) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
