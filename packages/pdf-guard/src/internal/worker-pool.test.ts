import { afterEach, describe, expect, it } from "vitest";
import { isPdfGuardError } from "../errors.js";
import { createPdfWorkerPool, type PdfWorkerPool, type PdfWorkerPoolOptions } from "./worker-pool.js";

const STAND_IN = new URL("./testing/stand-in-worker.mjs", import.meta.url);
const JOB = { timeoutMs: 10_000, maxTextChars: 1000, maxMemoryBytes: 64 * 1024 * 1024 };
const file = (command: string) => new TextEncoder().encode(command);

const pools: PdfWorkerPool[] = [];
function pool(options: Partial<PdfWorkerPoolOptions> = {}): PdfWorkerPool {
  const p = createPdfWorkerPool({
    size: 1,
    heapLimitMb: 64,
    startupTimeoutMs: 10_000,
    maxQueueWaitMs: 10_000,
    workerUrl: STAND_IN,
    ...options,
  });
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

// Waits (event-loop turns, no clock) until the pool is in the state a test needs.
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function errorOf(promise: Promise<unknown>): Promise<{ status: number; code: string } | "no error"> {
  try {
    await promise;
    return "no error";
  } catch (error) {
    if (!isPdfGuardError(error)) throw error;
    return { status: error.status, code: error.code };
  }
}

describe("PDF worker pool", () => {
  it("runs more files than workers through one queue, never starting more workers than its size", async () => {
    const p = pool({ size: 2 });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => p.parse(file(i % 3 === 0 ? "wait 20" : "ok"), JOB)),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(p.stats()).toEqual({ workers: 2, busy: 0, idle: 2, queued: 0, started: 2, peakWorkers: 2 });
  });

  it("starts the time limit when a worker receives the file, not when the file was queued", async () => {
    const p = pool({ size: 1 });
    const first = p.parse(file("wait 400"), JOB);
    // Waits about 400 ms in the queue; its own parse is instant, so its 150 ms limit is never hit.
    const second = p.parse(file("ok"), { ...JOB, timeoutMs: 150 });
    expect((await first).ok).toBe(true);
    expect(await second).toMatchObject({ ok: true, pages: ["ok"] });
    const slow = await p.parse(file("hang"), { ...JOB, timeoutMs: 50 });
    expect(slow).toEqual({ ok: false, reason: "timeout", detail: "parsing took longer than 50 ms" });
    // The worker that ran out of time is gone; the next file starts a fresh one.
    expect(p.stats()).toMatchObject({ workers: 0, started: 1 });
    expect((await p.parse(file("ok"), JOB)).ok).toBe(true);
    expect(p.stats()).toMatchObject({ workers: 1, started: 2 });
  });

  it("lets timers and the other workers in while its callers answer one worker's files in promises only", async () => {
    // Callers whose follow-up work is all promises (an embedded database, say) and takes longer than
    // a parse: the next answer of the same worker is always waiting when one is handled. Node reads
    // up to 1,000 messages of one port without returning to the event loop, so this once kept timers
    // and the other worker's answer waiting until the whole load was done.
    const p = pool({ size: 2 });
    const total = 200;
    let answered = 0;
    let answeredWhenTimerFired = -1;
    let mostOvertaken = 0;
    let next = 0;
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (;;) {
          if (next++ >= total) return;
          const answeredBefore = answered;
          expect((await p.parse(file("ok"), JOB)).ok).toBe(true);
          // How many other files were answered while this one was queued and parsed.
          mostOvertaken = Math.max(mostOvertaken, answered - answeredBefore);
          answered++;
          if (answered === 20) setTimeout(() => (answeredWhenTimerFired = answered), 0);
          spin(2);
        }
      }),
    );
    expect(answered).toBe(total);
    expect(answeredWhenTimerFired).toBeGreaterThanOrEqual(20);
    expect(answeredWhenTimerFired).toBeLessThan(40);
    expect(mostOvertaken).toBeLessThan(40);
  });

  it("takes an answer that arrived in time while the main thread was busy, not a timeout", async () => {
    const p = pool({ size: 1 });
    expect((await p.parse(file("ok"), JOB)).ok).toBe(true);
    // In an immediate, the main thread is blocked past the 20 ms limit while the worker answers at
    // once: after the block, the event loop's timers come before the port is read.
    const outcome = await new Promise<Promise<unknown>>((resolve) =>
      setImmediate(() => {
        const parsed = p.parse(file("ok"), { ...JOB, timeoutMs: 20 });
        const end = performance.now() + 150;
        while (performance.now() < end);
        resolve(parsed);
      }),
    );
    expect(await outcome).toMatchObject({ ok: true, pages: ["ok"] });
    expect(p.stats()).toMatchObject({ workers: 1, started: 1 });
  });

  it("fails a file that waited too long with 503 pdf_engine_busy, not with a refusal", {
    timeout: 60_000,
  }, async () => {
    const p = pool({ size: 1, maxQueueWaitMs: 100 });
    // Under load the worker may take longer than the 100 ms wait to start. A file that gave up
    // waiting still gets its worker started; wait until that worker is idle (starting another one
    // if a start failed), so the blocking file below goes straight to it.
    while (p.stats().idle === 0) {
      if (p.stats().workers === 0) void p.parse(file("ok"), JOB).catch(() => undefined);
      await until(() => p.stats().idle === 1 || p.stats().workers === 0);
    }
    const blocking = errorOf(p.parse(file("hang"), { ...JOB, timeoutMs: 60_000 }));
    await until(() => p.stats().busy === 1);
    const waiting = p.parse(file("ok"), JOB);
    const error = await waiting.catch((e: unknown) => e);
    expect(isPdfGuardError(error) && [error.status, error.code, error.retryAfterSeconds]).toEqual([
      503,
      "pdf_engine_busy",
      1,
    ]);
    expect(p.stats()).toMatchObject({ queued: 0, busy: 1 });
    await p.close();
    expect(await blocking).toEqual({ status: 503, code: "pdf_engine_closed" });
  });

  it("ends a worker that hangs while starting and reports the engine unavailable", async () => {
    const p = pool({ startupTimeoutMs: 200, workerData: { hangOnStart: true } });
    expect(await errorOf(p.parse(file("ok"), JOB))).toEqual({ status: 500, code: "pdf_engine_unavailable" });
    expect(p.stats()).toMatchObject({ workers: 0, queued: 0, started: 1 });
  });

  it("replaces a worker whose watchdog ended it, so the next file gets a live worker", async () => {
    const p = pool({ size: 1 });
    expect(await p.parse(file("exit"), JOB)).toEqual({
      ok: false,
      reason: "resource_limit",
      detail: "watchdog",
    });
    expect(await p.parse(file("ok"), { ...JOB, timeoutMs: 5_000 })).toMatchObject({ ok: true });
    expect(p.stats()).toMatchObject({ workers: 1, started: 2 });
  });

  it("takes an aborted file off the queue", async () => {
    const p = pool({ size: 1 });
    const blocking = p.parse(file("wait 200"), JOB);
    await until(() => p.stats().busy === 1);
    const controller = new AbortController();
    const queued = p.parse(file("ok"), { ...JOB, signal: controller.signal });
    controller.abort(new Error("client went away"));
    await expect(queued).rejects.toThrow("client went away");
    expect(p.stats().queued).toBe(0);
    expect((await blocking).ok).toBe(true);
  });

  it("after close, fails waiting and new files with 503 pdf_engine_closed", async () => {
    const p = pool({ size: 1 });
    const running = errorOf(p.parse(file("hang"), JOB));
    const waiting = errorOf(p.parse(file("ok"), JOB));
    await p.close();
    expect(await running).toEqual({ status: 503, code: "pdf_engine_closed" });
    expect(await waiting).toEqual({ status: 503, code: "pdf_engine_closed" });
    expect(await errorOf(p.parse(file("ok"), JOB))).toEqual({ status: 503, code: "pdf_engine_closed" });
    expect(p.stats().workers).toBe(0);
  });
});
