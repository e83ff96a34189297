import { describe, expect, it } from "vitest";
import { createLeaseLoop, type LeaseLoopOptions } from "./lease-loop.js";

// The loop under the webhook dispatcher and the letter runner: claims as many jobs as there are
// free slots, works them in the background, and drains them on stop (decision graceful-shutdown).

/** A promise with its resolve at hand. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A queue of numbered jobs and a record of what the loop did with them. */
function jobQueue(count: number) {
  const due = Array.from({ length: count }, (_, i) => i + 1);
  const claims: number[] = [];
  return {
    due,
    claims,
    claim: async (limit: number) => {
      claims.push(limit);
      return due.splice(0, limit);
    },
  };
}

const quiet = { onClaimError: () => {}, onWorkError: () => {} };

describe("lease loop", () => {
  it("runOnce claims up to concurrency, works each and returns the recorded outcomes in claim order", async () => {
    const queue = jobQueue(5);
    const loop = createLeaseLoop({
      ...quiet,
      claim: queue.claim,
      // Job 2 is abandoned: nothing recorded, so it is left out.
      work: async (job: number) => (job === 2 ? undefined : `done ${job}`),
      concurrency: 3,
      refillAt: 2,
      pollIntervalMs: 10_000,
    });
    expect(await loop.runOnce()).toEqual(["done 1", "done 3"]);
    expect(queue.claims).toEqual([3]);
    expect(queue.due).toEqual([4, 5]);
    expect(loop.running).toBe(false);
  });

  it("fills only the free slots, claims again at refillAt, and stop waits for the jobs in flight", async () => {
    const queue = jobQueue(6);
    const gates = new Map<number, { resolve: () => void }>();
    const finished: number[] = [];
    const loop = createLeaseLoop({
      ...quiet,
      claim: queue.claim,
      work: async (job: number) => {
        const gate = deferred();
        gates.set(job, gate);
        await gate.promise;
        finished.push(job);
        return job;
      },
      concurrency: 4,
      refillAt: 2,
      pollIntervalMs: 10_000,
    });
    loop.start();
    expect(loop.running).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.claims).toEqual([4]);
    // One slot free is not enough: it waits until at most two are in flight.
    gates.get(1)?.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.claims).toEqual([4]);
    gates.get(2)?.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.claims).toEqual([4, 2]);
    const stopped = loop.stop();
    expect(loop.running).toBe(false);
    let done = false;
    void stopped.then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    for (const job of [3, 4, 5, 6]) gates.get(job)?.resolve();
    await stopped;
    expect(finished.sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reports a failed claim and a job that threw, and keeps running; wake ends the poll wait", async () => {
    const reported: string[] = [];
    let calls = 0;
    const options: LeaseLoopOptions<string, string> = {
      claim: async () => {
        calls += 1;
        if (calls === 1) throw new Error("database away");
        return calls === 2 ? ["a"] : [];
      },
      work: async (job) => {
        throw new Error(`cannot record ${job}`);
      },
      concurrency: 2,
      refillAt: 1,
      pollIntervalMs: 60_000,
      onClaimError: (error) => reported.push(`claim: ${String(error)}`),
      onWorkError: (job, error) => reported.push(`work ${job}: ${String(error)}`),
    };
    const loop = createLeaseLoop(options);
    loop.start();
    await new Promise((r) => setTimeout(r, 10));
    expect(reported).toEqual(["claim: Error: database away"]);
    expect(calls).toBe(1);
    loop.wake();
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(2);
    expect(reported).toEqual(["claim: Error: database away", "work a: Error: cannot record a"]);
    loop.wake();
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(3);
    await loop.stop();
    expect(loop.running).toBe(false);
  });

  it("runs beforeClaim before every claim while it runs", async () => {
    const order: string[] = [];
    const loop = createLeaseLoop({
      ...quiet,
      beforeClaim: async () => {
        order.push("before");
      },
      claim: async () => {
        order.push("claim");
        return [];
      },
      work: async (job: never) => job,
      concurrency: 1,
      refillAt: 0,
      pollIntervalMs: 60_000,
    });
    loop.start();
    loop.start();
    await new Promise((r) => setTimeout(r, 10));
    loop.wake();
    await new Promise((r) => setTimeout(r, 10));
    await loop.stop();
    expect(order).toEqual(["before", "claim", "before", "claim"]);
  });
});
