import { describe, expect, it } from "vitest";
import { checkRetrySchedule, DEFAULT_RETRY_SCHEDULE_SECONDS, nextAttemptAt } from "./retry-schedule.js";

const t = new Date("2026-11-21T10:00:00.000Z");

describe("retry schedule", () => {
  it("waits 1 min, 5 min, 30 min, 2 h and 12 h: six attempts in all, growing intervals", () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([60, 300, 1800, 7200, 43_200]);
    expect([1, 2, 3, 4, 5, 6].map((n) => nextAttemptAt(n, t)?.toISOString() ?? null)).toEqual([
      "2026-11-21T10:01:00.000Z",
      "2026-11-21T10:05:00.000Z",
      "2026-11-21T10:30:00.000Z",
      "2026-11-21T12:00:00.000Z",
      "2026-11-21T22:00:00.000Z",
      null,
    ]);
  });

  it("takes a custom schedule and refuses one longer than six attempts or with shrinking waits", () => {
    expect(nextAttemptAt(2, t, [0.1, 0.25])?.toISOString()).toBe("2026-11-21T10:00:00.250Z");
    expect(nextAttemptAt(3, t, [0.1, 0.25])).toBeNull();
    expect(() => checkRetrySchedule([1, 2, 3, 4, 5, 6])).toThrow("at most 5 waits");
    expect(() => checkRetrySchedule([5, 1])).toThrow("never shorter than the one before");
    expect(() => checkRetrySchedule([-1])).toThrow("non-negative");
    expect(checkRetrySchedule([])).toEqual([]);
  });

  it("holds another schedule (the letter jobs) to finite, non-negative waits only with webhookRules: false", () => {
    const letters = [30, 10, 5, 5, 5, 5, 5];
    expect(checkRetrySchedule(letters, { webhookRules: false })).toBe(letters);
    expect(nextAttemptAt(2, t, letters)?.toISOString()).toBe("2026-11-21T10:00:10.000Z");
    expect(nextAttemptAt(8, t, letters)).toBeNull();
    expect(() => checkRetrySchedule([30, -1], { webhookRules: false })).toThrow(
      new TypeError("Retry waits must be finite and non-negative."),
    );
    expect(() => checkRetrySchedule([Number.NaN], { webhookRules: false })).toThrow(
      "Retry waits must be finite and non-negative.",
    );
  });
});
