import { describe, expect, it } from "vitest";
import { RecentEventIds } from "./recent-event-ids.js";

/** A clock the test moves by hand, in milliseconds. */
function manualClock() {
  let ms = 0;
  return {
    now: () => ms,
    advanceSeconds: (s: number) => {
      ms += s * 1000;
    },
  };
}

describe("RecentEventIds", () => {
  it("runs the work for a new id and skips a repeat", async () => {
    const seen = new RecentEventIds();
    const ran: string[] = [];
    expect(await seen.runOnce("evt_1", () => void ran.push("evt_1"))).toBe(true);
    expect(await seen.runOnce("evt_1", () => void ran.push("evt_1 again"))).toBe(false);
    expect(await seen.runOnce("evt_2", () => void ran.push("evt_2"))).toBe(true);
    expect(ran).toEqual(["evt_1", "evt_2"]);
  });

  it("remembers an id for 600 seconds by default, then forgets it", async () => {
    const clock = manualClock();
    const seen = new RecentEventIds({ now: clock.now });
    let runs = 0;
    const work = () => void runs++;
    await seen.runOnce("evt_1", work);
    clock.advanceSeconds(600);
    expect(await seen.runOnce("evt_1", work)).toBe(false);
    clock.advanceSeconds(1);
    expect(await seen.runOnce("evt_1", work)).toBe(true);
    expect(runs).toBe(2);
  });

  it("forgets ids by age, oldest first, under a custom window", async () => {
    const clock = manualClock();
    const seen = new RecentEventIds({ windowSeconds: 10, now: clock.now });
    await seen.runOnce("evt_old", () => {});
    clock.advanceSeconds(5);
    await seen.runOnce("evt_new", () => {});
    clock.advanceSeconds(6); // evt_old is 11 s old, evt_new 6 s
    expect(await seen.runOnce("evt_new", () => {})).toBe(false);
    expect(await seen.runOnce("evt_old", () => {})).toBe(true);
  });

  it("keeps at most maxIds, forgetting the oldest first", async () => {
    const seen = new RecentEventIds({ maxIds: 2 });
    await seen.runOnce("evt_1", () => {});
    await seen.runOnce("evt_2", () => {});
    await seen.runOnce("evt_3", () => {}); // evt_1 goes
    expect(await seen.runOnce("evt_3", () => {})).toBe(false);
    expect(await seen.runOnce("evt_2", () => {})).toBe(false);
    expect(await seen.runOnce("evt_1", () => {})).toBe(true);
  });

  it("gives the id back when the work fails, so the retry runs it", async () => {
    const seen = new RecentEventIds();
    const failure = new Error("database unavailable");
    await expect(
      seen.runOnce("evt_1", () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(seen.runOnce("evt_1", () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await seen.runOnce("evt_1", () => {})).toBe(true);
    expect(await seen.runOnce("evt_1", () => {})).toBe(false);
  });

  it("skips a repeat that arrives while the first is still running", async () => {
    const seen = new RecentEventIds();
    let finish = () => {};
    let runs = 0;
    const first = seen.runOnce("evt_1", () => {
      runs++;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    expect(await seen.runOnce("evt_1", () => void runs++)).toBe(false);
    finish();
    expect(await first).toBe(true);
    expect(runs).toBe(1);
  });

  it.each([
    ["windowSeconds 0", { windowSeconds: 0 }, "windowSeconds must be a positive number."],
    ["windowSeconds NaN", { windowSeconds: Number.NaN }, "windowSeconds must be a positive number."],
    [
      "windowSeconds Infinity",
      { windowSeconds: Number.POSITIVE_INFINITY },
      "windowSeconds must be a positive number.",
    ],
    ["maxIds 0", { maxIds: 0 }, "maxIds must be a positive integer."],
    ["maxIds 1.5", { maxIds: 1.5 }, "maxIds must be a positive integer."],
  ])("refuses %s", (_, options, message) => {
    expect(() => new RecentEventIds(options)).toThrow(new RangeError(message));
  });
});
