/**
 * Names of the three delivery headers, as the spec writes them (spec, Events, "Headers and
 * verification"). HTTP field names are case-insensitive (RFC 9110 §5.1); the verifier looks them
 * up in any case, and Node lower-cases them in `IncomingHttpHeaders`.
 *
 * @example
 * ```ts
 * import { WEBHOOK_HEADERS } from "@incasso/webhook-signing";
 * request.headers.get(WEBHOOK_HEADERS.signature); // "5d8c…" (64 hex characters)
 * ```
 */
export const WEBHOOK_HEADERS = {
  /** Hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the signing secret. */
  signature: "X-Service-Signature",
  /** Unix seconds at signing time; part of the signed string. */
  timestamp: "X-Service-Timestamp",
  /** The event type; not covered by the signature. */
  event: "X-Service-Event",
} as const;

/**
 * The headers {@link signWebhook} returns, keyed by the spec's spelling, ready to pass to
 * `fetch(url, { method: "POST", headers, body })`.
 *
 * @example
 * ```ts
 * import type { WebhookSignatureHeaders } from "@incasso/webhook-signing";
 * const headers: WebhookSignatureHeaders = {
 *   "X-Service-Signature": "0".repeat(64),
 *   "X-Service-Timestamp": "1763731200",
 *   "X-Service-Event": "case.updated",
 * };
 * ```
 */
// A type alias, not an interface: an alias is assignable to Record<string, string> and HeadersInit.
export type WebhookSignatureHeaders = {
  "X-Service-Signature": string;
  "X-Service-Timestamp": string;
  "X-Service-Event": string;
};

/**
 * Headers as the receiver has them: a web `Headers` object (fetch, h3, Hono, Deno, Bun) or a
 * plain record such as Node's `IncomingHttpHeaders` (Express, Fastify, `node:http`).
 *
 * @example
 * ```ts
 * import type { WebhookHeadersInput } from "@incasso/webhook-signing";
 * const fromNode: WebhookHeadersInput = { "x-service-timestamp": "1763731200" };
 * const fromFetch: WebhookHeadersInput = new Headers(fromNode as Record<string, string>);
 * ```
 */
export type WebhookHeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;
