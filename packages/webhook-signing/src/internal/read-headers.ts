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
 *
 * Any value of ours that is neither a string nor an array of strings (null, a number, `[1]`) is
 * `malformed_header` too: a rejected delivery, never a TypeError from the checks that follow
 * (docs/decisions/webhook-signing-headers.md).
 */
export function readDeliveryHeaders(headers: WebhookHeadersInput): DeliveryHeaders {
  if (typeof (headers as { get?: unknown }).get === "function") {
    const h = headers as { get(name: string): unknown };
    return {
      signature: fromGet(h.get(SIGNATURE), SIGNATURE),
      timestamp: fromGet(h.get(TIMESTAMP), TIMESTAMP),
      event: fromGet(h.get(EVENT), EVENT),
    };
  }
  // Typed as unknown: records are often hand-built or deserialised, so the values are checked.
  const record = headers as Readonly<Record<string, unknown>>;
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

function single(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.length > 1) {
      throw new WebhookVerificationError("malformed_header", `Header ${name} is present more than once.`, {
        header: name,
      });
    }
    if (typeof value[0] === "string") return value[0];
  }
  throw notText(name);
}

/** `get()` answers null for an absent header (Fetch standard); anything but a string besides is malformed. */
function fromGet(value: unknown, name: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  throw notText(name);
}

function notText(name: string): WebhookVerificationError {
  return new WebhookVerificationError(
    "malformed_header",
    `Header ${name} is neither a string nor an array of strings.`,
    { header: name },
  );
}
