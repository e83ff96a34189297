import type { LetterJobResult } from "@incasso/case-system";
import type { Logger } from "@incasso/server";
import type { DispatchedAttempt } from "../webhooks/webhook-dispatcher.js";

/**
 * Info lines for what the workers got done; their failures they log themselves, at warn and error
 * (decision operations-logs). Fields only, no webhook URL (it may carry a client's token) and no
 * payload.
 *
 * @example
 * const events = workerEventLogs(logger);
 * createWebhookDispatcher({ store, onAttempt: events.onAttempt });
 */
export function workerEventLogs(logger: Pick<Logger, "info">): {
  onAttempt(attempt: DispatchedAttempt): void;
  onLetterJob(result: LetterJobResult): void;
} {
  return {
    onAttempt(a) {
      if (a.result.outcome !== "delivered") return;
      logger.info("webhook delivered", {
        eventId: a.eventId,
        type: a.type,
        attempt: a.attempt,
        statusCode: a.result.statusCode,
        durationMs: a.result.durationMs,
      });
    },
    onLetterJob(r) {
      if (r.outcome !== "made" && r.outcome !== "existed") return;
      logger.info(r.outcome === "made" ? "14-day letter made" : "14-day letter existed already", {
        orderId: r.orderId,
        caseNumber: r.caseNumber,
        attempt: r.attempt,
        letterId: r.letterId,
      });
    },
  };
}
