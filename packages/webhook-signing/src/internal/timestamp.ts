import { WebhookVerificationError } from "../errors.js";

// Unix seconds as decimal digits only: no sign, fraction or exponent (spec: "timestamp, Unix
// seconds"). Twelve digits reach far past any real clock and keep the value a safe integer.
const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** Parses X-Service-Timestamp; the caller keeps the text, because the text is what was signed. */
export function parseTimestampHeader(value: string): number {
  if (!UNIX_SECONDS.test(value)) {
    throw new WebhookVerificationError(
      "malformed_header",
      "Header x-service-timestamp is not a whole number of Unix seconds.",
      { header: "x-service-timestamp" },
    );
  }
  return Number(value);
}
