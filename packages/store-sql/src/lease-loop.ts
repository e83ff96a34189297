/**
 * Options of {@link createLeaseLoop}: how to claim leased jobs, how to work one, and how many at
 * once.
 *
 * @example
 * const options: LeaseLoopOptions<Job, Done> = {
 *   claim: (limit) => claimJobs(db, { owner, limit }),
 *   work: (job) => doJob(job),
 *   concurrency: 4,
 *   refillAt: 3,
 *   pollIntervalMs: 1000,
 *   onClaimError: (error) => console.error("claim failed", error),
 *   onWorkError: (job, error) => console.error("job could not be recorded", job, error),
 * };
 */
export interface LeaseLoopOptions<Job, Done> {
  /**
   * Claims up to `limit` due jobs under this worker's lease (`FOR UPDATE SKIP LOCKED` plus a lease
   * in the database, so workers in any number of processes share the work).
   */
  claim(limit: number): Promise<Job[]>;
  /** Works one claimed job and records its outcome; undefined when nothing was recorded (abandoned). */
  work(job: Job): Promise<Done | undefined>;
  /** Jobs worked at once; at least 1. */
  concurrency: number;
  /**
   * When every free slot was filled, the loop claims again once at most this many jobs are still in
   * flight (`concurrency - 1`: at every free slot; `concurrency / 2`: in batches).
   */
  refillAt: number;
  /** How long to wait before looking again when there was nothing (or too little) to claim. */
  pollIntervalMs: number;
  /** Runs before each claim while the loop runs (periodic housekeeping); it catches its own errors. */
  beforeClaim?: () => Promise<void>;
  /** A claim failed (the database is away): reported, and the loop tries again after a poll interval. */
  onClaimError(error: unknown): void;
  /** A job's `work` threw in the background loop (its outcome could not be recorded). */
  onWorkError(job: Job, error: unknown): void;
}

/**
 * A loop that claims leased jobs and works them: polled in the background between `start()` and
 * `stop()`, or once by `runOnce()`.
 *
 * @example
 * const loop = createLeaseLoop(options);
 * loop.start();
 * process.once("SIGTERM", () => void loop.stop());
 */
export interface LeaseLoop<Done> {
  /** True from `start()` until `stop()` is called. */
  readonly running: boolean;
  /** Starts polling in the background; a second call while running does nothing. */
  start(): void;
  /** Stops polling, then waits for the loop and for every job in flight to settle. */
  stop(): Promise<void>;
  /** Claims up to `concurrency` due jobs once and works them; the recorded outcomes, in claim order. */
  runOnce(): Promise<Done[]>;
  /** Counts a promise as in flight until it settles, so `stop()` waits for it; returns it. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** Ends the current poll wait at once, so the loop looks for due jobs now. */
  wake(): void;
}

/**
 * Creates the claim-and-work loop shared by the webhook dispatcher (outbox events) and the letter
 * runner (14-day letter jobs): claims as many due jobs as there are free slots, works each in the
 * background, waits a poll interval when the claim came back short (or failed), and on `stop()`
 * lets every job in flight finish, so a graceful stop drains the work instead of cutting it off
 * (decision graceful-shutdown). A job whose worker died is taken over by another worker when its
 * lease in the database runs out; the loop itself holds no lease state.
 *
 * @example
 * const loop = createLeaseLoop({
 *   claim: (limit) => store.outbox.claim({ owner, now: new Date(), leaseSeconds: 60, limit, maxAttempts: 6 }),
 *   work: deliver,
 *   concurrency: 16,
 *   refillAt: 8,
 *   pollIntervalMs: 1000,
 *   onClaimError: (error) => logger.error("webhook claim failed", { error: String(error) }),
 *   onWorkError: (c, error) => logger.error("webhook attempt could not be recorded", { eventId: c.event.id, error: String(error) }),
 * });
 * loop.start();
 */
export function createLeaseLoop<Job, Done>(options: LeaseLoopOptions<Job, Done>): LeaseLoop<Done> {
  const { concurrency, refillAt, pollIntervalMs } = options;
  const inFlight = new Set<Promise<unknown>>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.then(
      () => inFlight.delete(promise),
      () => inFlight.delete(promise),
    );
    return promise;
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run(): Promise<void> {
    while (running) {
      if (options.beforeClaim) await options.beforeClaim();
      const room = concurrency - inFlight.size;
      let claimed: Job[] = [];
      if (room > 0) {
        try {
          claimed = await options.claim(room);
        } catch (error) {
          options.onClaimError(error);
          await pause(pollIntervalMs);
          continue;
        }
        for (const job of claimed) {
          track(options.work(job).catch((error: unknown) => options.onWorkError(job, error)));
        }
      }
      if (!running) break;
      if (claimed.length > 0 && claimed.length === room) {
        // Full: claim again once enough slots are free.
        while (running && inFlight.size > refillAt) await Promise.race(inFlight);
      } else await pause(pollIntervalMs);
    }
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
    async runOnce() {
      const claimed = await options.claim(concurrency);
      const done = await Promise.all(claimed.map((job) => track(options.work(job))));
      // An abandoned job recorded nothing: it is no outcome.
      return done.filter((d) => d !== undefined) as Done[];
    },
    track,
    wake() {
      wakeUp?.();
    },
  };
}
