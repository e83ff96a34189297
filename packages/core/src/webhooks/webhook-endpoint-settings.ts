import { randomBytes, toBase64Url } from "../internal/bytes.js";
import { WebhookError } from "./errors.js";

/** Longest webhook URL we store; browsers and servers commonly stop at about 8 KB, we keep far below. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks an endpoint URL as the operator registers it and returns it normalised (WHATWG URL
 * serialisation). Only syntax is checked here; whether the host is private is checked at every
 * delivery, after resolving it, because DNS answers change (docs/decisions/webhooks-private-targets.md).
 *
 * @throws WebhookError `invalid_webhook_url`: not absolute http(s), user info, a fragment, too long.
 * @example
 * checkWebhookUrl("https://client.example/webhooks/incasso"); // "https://client.example/webhooks/incasso"
 */
export function checkWebhookUrl(value: string): string {
  const fail = (why: string): never => {
    throw new WebhookError("invalid_webhook_url", `The webhook URL ${JSON.stringify(value)} ${why}.`);
  };
  if (value.length > MAX_WEBHOOK_URL_LENGTH) fail(`is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail("is not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail("must start with https:// or http://");
  // Credentials in a URL end up in logs and listings; the signature already authenticates us.
  if (url.username !== "" || url.password !== "") fail("must not contain a user name or password");
  // A fragment is never sent over HTTP (RFC 9110 §4.2.4), so it can only be a mistake.
  if (url.hash !== "" || value.includes("#")) fail("must not contain a fragment (#)");
  if (url.hostname === "") fail("has no host");
  return url.href;
}

const SECRET_PATTERN = /^[\x21-\x7e]{16,256}$/;

/**
 * Checks a signing secret the operator chose: 16 to 256 visible ASCII characters, so it survives
 * shells, environment variables and copy-paste unchanged (docs/decisions/webhooks-secrets.md).
 *
 * @throws WebhookError `invalid_webhook_secret`.
 * @example
 * checkWebhookSecret("a-long-shared-secret-value"); // returns it unchanged
 */
export function checkWebhookSecret(secret: string): string {
  if (!SECRET_PATTERN.test(secret)) {
    throw new WebhookError(
      "invalid_webhook_secret",
      "The signing secret must be 16 to 256 visible ASCII characters (no spaces).",
    );
  }
  return secret;
}

/**
 * A new signing secret: `whsec_` and 32 random bytes in base64url (256 bits).
 *
 * @example
 * generateWebhookSecret(); // "whsec_Vx3…" (49 characters)
 */
export function generateWebhookSecret(): string {
  return `whsec_${toBase64Url(randomBytes(32))}`;
}

/**
 * What listings show of a secret: its first six and last four characters.
 *
 * @example
 * webhookSecretHint("whsec_abcdefghijklmnopqrstuvwxyz"); // "whsec_…wxyz"
 */
export function webhookSecretHint(secret: string): string {
  return `${secret.slice(0, 6)}…${secret.slice(-4)}`;
}
