/**
 * Seconds to wait after each failed attempt before the next: 1 minute, 5 minutes, 30 minutes,
 * 2 hours, 12 hours. Five waits make six attempts in all (spec, Limits: "Webhook attempts: up to
 * 6"), spread over almost 15 hours so a receiver that is down overnight still gets the event;
 * the exact intervals are ours to choose (spec: "not shown"; docs/decisions/webhooks-retry-schedule.md).
 *
 * @example
 * DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1; // 6 attempts
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [60, 300, 1800, 7200, 43_200];

/**
 * When the attempt after a failed one is due, or null when the failed one was the last of its
 * round (a webhook event is then marked failed, a letter job failed for good). `attemptInRound`
 * counts from 1; the schedule defaults to the webhook one.
 *
 * @example
 * nextAttemptAt(1, new Date("2026-11-21T10:00:00Z")); // 2026-11-21T10:01:00.000Z
 * nextAttemptAt(6, new Date("2026-11-21T10:00:00Z")); // null
 */
export function nextAttemptAt(
  attemptInRound: number,
  failedAt: Date,
  scheduleSeconds: readonly number[] = DEFAULT_RETRY_SCHEDULE_SECONDS,
): Date | null {
  const wait = scheduleSeconds[attemptInRound - 1];
  if (wait === undefined) return null;
  return new Date(failedAt.getTime() + wait * 1000);
}

/**
 * Checks a schedule: finite, non-negative waits and, by the rules of webhook delivery (the
 * default), non-decreasing ("increasing intervals", spec, Events, Delivery) and at most five (six
 * attempts, spec, Limits). A schedule of other work (the letter jobs, decision
 * case-system-wik-letter-jobs) is held to the first two only with `webhookRules: false`.
 *
 * @example
 * checkRetrySchedule([0.1, 0.2, 0.4, 0.8, 1.6]); // returns it
 * checkRetrySchedule([30, 10], { webhookRules: false }); // returns it
 */
export function checkRetrySchedule(
  scheduleSeconds: readonly number[],
  options: { webhookRules?: boolean } = {},
): readonly number[] {
  const webhookRules = options.webhookRules ?? true;
  if (webhookRules && scheduleSeconds.length > 5) {
    throw new TypeError("A retry schedule has at most 5 waits: the spec allows up to 6 attempts.");
  }
  let previous = 0;
  for (const wait of scheduleSeconds) {
    if (!Number.isFinite(wait) || wait < (webhookRules ? previous : 0)) {
      throw new TypeError(
        webhookRules
          ? "Retry waits must be finite, non-negative and never shorter than the one before."
          : "Retry waits must be finite and non-negative.",
      );
    }
    previous = wait;
  }
  return scheduleSeconds;
}
