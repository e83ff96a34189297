import { describe, expect, it } from "vitest";
import { isRetryable, parseRetryAfter, type RetrySettings, retryDelayMs, sleep } from "./retry-policy.js";

const settings: RetrySettings = { max: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterSeconds: 60 };
const answer = (status: number, code: string | null = null) => ({ kind: "answer" as const, status, code });

describe("isRetryable", () => {
  it("retries a keyed POST after no answer, 5xx but 501, 429 and 409 idempotency_in_progress", () => {
    expect(isRetryable("keyed", { kind: "no_answer" })).toBe(true);
    expect([500, 502, 503, 504].map((s) => isRetryable("keyed", answer(s)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isRetryable("keyed", answer(501))).toBe(false);
    expect(isRetryable("keyed", answer(429, "rate_limited"))).toBe(true);
    expect(isRetryable("keyed", answer(409, "idempotency_in_progress"))).toBe(true);
    expect(isRetryable("keyed", answer(409, "idempotency_conflict"))).toBe(false);
    expect(isRetryable("keyed", answer(422, "validation_error"))).toBe(false);
    expect(isRetryable("keyed", answer(400, "invalid_json"))).toBe(false);
  });

  it("retries reads after no answer, 5xx but 501 and 429, never a 409", () => {
    expect(isRetryable("safe", { kind: "no_answer" })).toBe(true);
    expect(isRetryable("safe", answer(502))).toBe(true);
    expect(isRetryable("safe", answer(501))).toBe(false);
    expect(isRetryable("safe", answer(429))).toBe(true);
    expect(isRetryable("safe", answer(409, "idempotency_in_progress"))).toBe(false);
    expect(isRetryable("safe", answer(404, "not_found"))).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("doubles from the base delay with equal jitter, capped", () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => retryDelayMs(settings, n, null, () => 0))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect([0, 1, 5].map((n) => retryDelayMs(settings, n, null, () => 1))).toEqual([500, 1000, 8000]);
  });

  it("waits Retry-After plus at most a tenth", () => {
    expect(retryDelayMs(settings, 0, 3, () => 0)).toBe(3000);
    expect(retryDelayMs(settings, 2, 3, () => 1)).toBe(3300);
    expect(retryDelayMs(settings, 0, 0, () => 1)).toBe(0);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP-dates (RFC 9110 §10.2.3)", () => {
    expect(parseRetryAfter("5")).toBe(5);
    expect(parseRetryAfter(" 0 ")).toBe(0);
    const now = Date.parse("2026-11-25T10:00:00Z");
    expect(parseRetryAfter("Wed, 25 Nov 2026 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 25 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null)).toBe(null);
    expect(parseRetryAfter("soon")).toBe(null);
    expect(parseRetryAfter("-1")).toBe(null);
  });
});

describe("sleep", () => {
  it("rejects with the signal's reason when aborted while waiting", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });
});
