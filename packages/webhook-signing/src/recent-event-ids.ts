/**
 * Options of {@link RecentEventIds}.
 *
 * @example
 * ```ts
 * const options: RecentEventIdsOptions = { windowSeconds: 600, maxIds: 10_000 };
 * ```
 */
export interface RecentEventIdsOptions {
  /**
   * How long an id is remembered, in seconds. Default 600: twice the verifier's 300-second
   * tolerance, because a captured delivery verifies from 300 s before to 300 s after its
   * timestamp, so with the two clocks apart it can be replayed up to 600 s after it first came.
   */
  windowSeconds?: number;
  /** Most ids kept at once (default 10,000); past it the oldest is forgotten early. */
  maxIds?: number;
  /** Clock in milliseconds. Default `performance.now()`, which never goes back. */
  now?: () => number;
}

/**
 * The event ids this process handled recently, so that a repeated delivery is answered 2xx without
 * running the handler again. Delivery is at least once (docs/webhooks.md; spec, Events,
 * "Delivery"): a retry after a 2xx that got lost, a redelivery by the operator, or a replay of a
 * captured delivery within the 300-second window carry an `id` already handled.
 *
 * This is a sketch kept in memory: bounded (ids older than the window are dropped, and at most
 * `maxIds` are kept), lost on restart, and not shared between instances, while the service
 * retries for about 14.5 hours. In production keep the ids in a durable store shared by every
 * instance: a unique key on the event id in your database, inserted in the same transaction as
 * the work, so a failed transaction leaves the id free for the retry as {@link runOnce} does here.
 *
 * @example
 * ```ts
 * const seen = new RecentEventIds();
 * await seen.runOnce(event.id, () => options.onEvent(event)); // false: a repeat, not run again
 * return new Response(null, { status: 204 }); // 2xx either way, so the service stops retrying
 * ```
 */
export class RecentEventIds {
  readonly #windowMs: number;
  readonly #maxIds: number;
  readonly #now: () => number;
  // id → when it was claimed. A Map iterates in insertion order, so the oldest ids come first.
  readonly #claimedAt = new Map<string, number>();

  constructor(options: RecentEventIdsOptions = {}) {
    const windowSeconds = options.windowSeconds ?? 600;
    const maxIds = options.maxIds ?? 10_000;
    if (!(windowSeconds > 0 && Number.isFinite(windowSeconds))) {
      throw new RangeError("windowSeconds must be a positive number.");
    }
    if (!(Number.isSafeInteger(maxIds) && maxIds > 0))
      throw new RangeError("maxIds must be a positive integer.");
    this.#windowMs = windowSeconds * 1000;
    this.#maxIds = maxIds;
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Runs `work` unless `id` was claimed within the window. The id is claimed before `work`
   * starts, so a repeat arriving while it runs is not run twice; when `work` fails the claim is
   * given back and the error passed on (the answer is then 5xx and the service's retry runs it).
   *
   * @returns `true` when `work` ran, `false` for a repeat.
   * @example
   * ```ts
   * const seen = new RecentEventIds();
   * await seen.runOnce("evt_1", () => console.log("handled")); // true, logs once
   * await seen.runOnce("evt_1", () => console.log("handled")); // false
   * ```
   */
  async runOnce(id: string, work: () => void | Promise<void>): Promise<boolean> {
    const now = this.#now();
    for (const [oldId, claimedAt] of this.#claimedAt) {
      if (now - claimedAt <= this.#windowMs) break;
      this.#claimedAt.delete(oldId);
    }
    if (this.#claimedAt.has(id)) return false;
    if (this.#claimedAt.size >= this.#maxIds) {
      // Bounded memory over perfect memory: only verified deliveries get here, so filling it
      // takes the service's own traffic, and the oldest id is the least likely to come again.
      const oldest = this.#claimedAt.keys().next().value as string;
      this.#claimedAt.delete(oldest);
    }
    this.#claimedAt.set(id, now);
    try {
      await work();
    } catch (error) {
      this.#claimedAt.delete(id);
      throw error;
    }
    return true;
  }
}
