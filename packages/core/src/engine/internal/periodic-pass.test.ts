import { describe, expect, it, vi } from "vitest";
import { startPeriodicPass } from "./periodic-pass.js";

describe("startPeriodicPass", () => {
  it("runs at once, again after each pass, and reports a failing pass without stopping", async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const loop = startPeriodicPass(
      async () => {
        passes++;
        if (passes === 2) throw new Error("database out of reach");
      },
      { intervalMs: 1, onError: (error) => errors.push(error) },
    );
    expect(passes).toBe(1);
    await vi.waitFor(() => expect(passes).toBeGreaterThanOrEqual(3));
    await loop.stop();
    const after = passes;
    expect(errors).toEqual([new Error("database out of reach")]);
    await new Promise((r) => setTimeout(r, 20));
    expect(passes).toBe(after);
  });

  it("stop() aborts the signal of the pass in progress and waits for it to end", async () => {
    let seen: AbortSignal | undefined;
    let ended = false;
    const loop = startPeriodicPass(
      (signal) => {
        seen = signal;
        return new Promise<void>((resolve) =>
          signal.addEventListener("abort", () => {
            ended = true;
            resolve();
          }),
        );
      },
      { intervalMs: 60_000, onError: () => {} },
    );
    expect(seen?.aborted).toBe(false);
    await loop.stop();
    expect(seen?.aborted).toBe(true);
    expect(ended).toBe(true);
  });
});
