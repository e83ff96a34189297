import { IncassoError } from "../incasso-error.js";

/**
 * Every code a {@link WebhookError} can carry. Stable across releases; the operator endpoint and
 * the CLI pass them through unchanged.
 *
 * @example
 * WEBHOOK_ERROR_CODES.includes("invalid_webhook_url"); // true
 */
export const WEBHOOK_ERROR_CODES = [
  "invalid_webhook_url",
  "invalid_webhook_secret",
  "invalid_webhook_event",
  "webhook_endpoint_not_found",
  "webhook_event_not_found",
  "delivery_in_progress",
] as const;

/**
 * A machine-readable {@link WebhookError} code.
 *
 * @example
 * const code: WebhookErrorCode = "webhook_event_not_found";
 */
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

/**
 * An error of webhook registration or delivery bookkeeping with a stable `code` (an
 * {@link IncassoError}).
 *
 * @example
 * throw new WebhookError("webhook_event_not_found", "No event evt_0123456789abcdef.");
 */
export class WebhookError extends IncassoError<WebhookErrorCode> {
  /** Brand checked by {@link isWebhookError}, so no caller needs `instanceof` across packages. */
  readonly isIncassoWebhookError = true as const;

  constructor(code: WebhookErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = "WebhookError";
  }
}

/**
 * Whether a value is a {@link WebhookError}, also when it comes from another copy of this package.
 *
 * @example
 * try { await tx.outbox.redeliver(id, new Date()); } catch (e) { if (isWebhookError(e)) console.log(e.code); }
 */
export function isWebhookError(value: unknown): value is WebhookError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoWebhookError?: unknown }).isIncassoWebhookError === true
  );
}
