import { describe, expect, it } from "vitest";
import { nextTurn } from "./next-turn.js";

describe("nextTurn", () => {
  it("releases one waiter per turn of the event loop, in order, with other callbacks between", async () => {
    const events: string[] = [];
    const first = nextTurn().then(() => {
      events.push("first");
      // Still the first one's turn: the second has not been released.
      queueMicrotask(() => events.push("microtask after first"));
    });
    const second = nextTurn().then(() => events.push("second"));
    const third = nextTurn().then(() => events.push("third"));
    // Queued after the first release: runs before the second waiter is let go.
    setTimeout(() => events.push("timer"), 0);
    await Promise.all([first, second, third]);
    expect(events).toEqual(["first", "microtask after first", "timer", "second", "third"]);
    // The queue is empty again: a new waiter is released on its own.
    await nextTurn();
  });
});
