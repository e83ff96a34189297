import type {
  WebhookAttemptSummary,
  WebhookDeliverySummary,
  WebhookSendSummary,
} from "../webhooks/direct-webhook-operations.js";

// How the webhook commands print for a person; `--json` prints the summaries instead.

/**
 * One delivery attempt on one line, for `webhooks deliveries --event`, `ping` and `redeliver`.
 *
 * @example
 * console.log(attemptLine(attempt));
 */
export function attemptLine(a: WebhookAttemptSummary): string {
  const result =
    a.outcome === null
      ? "in flight"
      : a.outcome === "delivered"
        ? `delivered (HTTP ${a.status_code} in ${a.duration_ms} ms)`
        : a.outcome === "lease_expired"
          ? "lease expired: its dispatcher stopped before recording a result"
          : `failed (${a.error})`;
  const next = a.next_attempt_at ? `; next attempt at ${a.next_attempt_at}` : "";
  return `attempt ${a.attempt} at ${a.started_at} by ${a.owner} to ${a.url ?? "(no endpoint)"}: ${result}${next}`;
}

/**
 * An event and its delivery state on one line, for `webhooks deliveries`.
 *
 * @example
 * console.log(deliveryLine(delivery));
 */
export function deliveryLine(d: WebhookDeliverySummary): string {
  const last =
    d.state === "delivered"
      ? `HTTP ${d.last_status}`
      : d.state === "pending" && d.next_attempt_at
        ? `next attempt at ${d.next_attempt_at}${d.last_error ? ` (last: ${d.last_error})` : ""}`
        : (d.last_error ?? "");
  return `${d.event_id}  ${d.created_at}  ${d.organisation}  ${d.type}  ${d.state}  ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}${last ? `  ${last}` : ""}`;
}

/**
 * What a send at once (`ping`, `redeliver`) came to, on one line.
 *
 * @example
 * console.log(sendLine("Ping", sent));
 */
export function sendLine(label: string, sent: WebhookSendSummary): string {
  if (sent.attempt === null) {
    return `${label} ${sent.event.event_id} is queued (${sent.event.state}); a running dispatcher is delivering it.`;
  }
  return `${label} ${sent.event.event_id}: ${attemptLine(sent.attempt)}.`;
}

/**
 * A failed attempt is retried by the dispatchers; the exit status tells scripts it did not arrive
 * yet. Nothing is said while a running dispatcher has the event.
 *
 * @example
 * markUndelivered(sent); // process.exitCode is 1 when the attempt failed
 */
export function markUndelivered(sent: WebhookSendSummary): void {
  if (sent.attempt !== null && sent.attempt.outcome !== "delivered") process.exitCode = 1;
}
