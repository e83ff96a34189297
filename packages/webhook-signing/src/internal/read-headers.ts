import { WebhookVerificationError } from "../errors.js";
import type { WebhookHeadersInput } from "../webhook-headers.js";

/** The three delivery headers as found; `undefined` when absent. */
export interface DeliveryHeaders {
  signature: string | undefined;
  timestamp: string | undefined;
  event: string | undefined;
}

const SIGNATURE = "x-service-signature";
const TIMESTAMP = "x-service-timestamp";
const EVENT = "x-service-event";

/**
 * Reads the three delivery headers case-insensitively (RFC 9110 §5.1) from a `Headers`-like
 * object or a plain record, in one pass over the record's keys.
 *
 * A header that occurs more than once is refused as `malformed_header` rather than guessed at:
 * a record may hold it under two spellings, an array value means repeated fields, and a web
 * `Headers` object joins repeats with ", " (RFC 9110 §5.3), which then fails the format check.
 */
export function readDeliveryHeaders(headers: WebhookHeadersInput): DeliveryHeaders {
  if (typeof (headers as { get?: unknown }).get === "function") {
    const h = headers as { get(name: string): string | null };
    return {
      signature: h.get(SIGNATURE) ?? undefined,
      timestamp: h.get(TIMESTAMP) ?? undefined,
      event: h.get(EVENT) ?? undefined,
    };
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const found: DeliveryHeaders = { signature: undefined, timestamp: undefined, event: undefined };
  for (const key in record) {
    // Cheap length filter first: only names of 15 or 19 characters can match, so most headers
    // (content-type, user-agent, …) are skipped without lower-casing.
    const length = key.length;
    if (length !== 19 && length !== 15) continue;
    const lower = key.toLowerCase();
    let slot: keyof DeliveryHeaders;
    if (lower === SIGNATURE) slot = "signature";
    else if (lower === TIMESTAMP) slot = "timestamp";
    else if (lower === EVENT) slot = "event";
    else continue;
    const value = single(record[key], lower);
    if (value === undefined) continue;
    if (found[slot] !== undefined) {
      throw new WebhookVerificationError("malformed_header", `Header ${lower} is present more than once.`, {
        header: lower,
      });
    }
    found[slot] = value;
  }
  return found;
}

function single(value: string | readonly string[] | undefined, name: string): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  if (value.length === 0) return undefined;
  if (value.length === 1) return value[0];
  throw new WebhookVerificationError("malformed_header", `Header ${name} is present more than once.`, {
    header: name,
  });
}
