import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { ClaimedDelivery, IncassoStore } from "@incasso/core";
import type { Logger } from "@incasso/server";
import {
  checkRetrySchedule,
  createLeaseLoop,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  nextAttemptAt,
} from "@incasso/store-sql";
import { allowPrivateWebhookTargets } from "./allow-private-targets.js";
import { DEFAULT_WEBHOOK_TIMEOUT_MS, deliverWebhook, type WebhookAttemptResult } from "./deliver-webhook.js";
import type { LookupAll } from "./resolve-webhook-target.js";

/**
 * Options of {@link createWebhookDispatcher}. Only `store` is required.
 *
 * @example
 * const options: WebhookDispatcherOptions = { store, allowPrivateTargets: process.env.NODE_ENV === "development" };
 */
export interface WebhookDispatcherOptions {
  store: IncassoStore;
  /** This dispatcher's id in leases and attempt records; default `dsp_` and 12 random hex digits. */
  owner?: string;
  /** The clock; tests move it to expire leases. */
  now?: () => Date;
  /** Waits after each failed attempt, in seconds; default {@link DEFAULT_RETRY_SCHEDULE_SECONDS}. */
  scheduleSeconds?: readonly number[];
  /** Time-out of one attempt; default 10 000 ms. */
  timeoutMs?: number;
  /** How long a claim holds; default 60 s. Must exceed the time-out, so a live attempt is never taken over. */
  leaseSeconds?: number;
  /** Attempts in flight at once; default 16. */
  concurrency?: number;
  /** How often to look for due events when idle; default 1000 ms. */
  pollIntervalMs?: number;
  /**
   * Send to private addresses too (local development only; docs/decisions/webhooks-private-targets.md).
   * Default: the INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS variable, as for the CLI.
   */
  allowPrivateTargets?: boolean;
  /** Resolver for target host names; default the system's. */
  lookup?: LookupAll;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  /** Called after every attempt has been recorded (metrics, tests). */
  onAttempt?: (attempt: DispatchedAttempt) => void;
}

/**
 * An attempt as the dispatcher made and recorded it.
 *
 * @example
 * const a: DispatchedAttempt = { eventId: "evt_0123456789abcdef", attempt: 1, type: "ping", url: "https://client.example/hook",
 *   result: { outcome: "delivered", statusCode: 204, durationMs: 8, failure: null, error: null }, nextAttemptAt: null, recorded: true };
 */
export interface DispatchedAttempt {
  eventId: string;
  attempt: number;
  type: string;
  url: string | null;
  result: WebhookAttemptResult;
  nextAttemptAt: Date | null;
  /** False when the lease had been taken over before the result could be recorded. */
  recorded: boolean;
}

/**
 * A running (or startable) dispatcher.
 *
 * @example
 * const dispatcher = createWebhookDispatcher({ store });
 * dispatcher.start();
 * process.once("SIGTERM", () => void dispatcher.stop());
 */
export interface WebhookDispatcher {
  readonly owner: string;
  /**
   * Whether it polls: true from `start()` until `stop()` is called (readiness reports it, so an
   * instance whose worker stopped is taken out of rotation).
   */
  readonly running: boolean;
  /** Starts polling in the background. */
  start(): void;
  /**
   * Stops polling and waits for the attempts in flight to be recorded. With `abandon`, it aborts
   * them and records nothing, as a crash would: their leases run out and another dispatcher
   * takes the events over.
   */
  stop(options?: { abandon?: boolean }): Promise<void>;
  /** Claims up to `concurrency` due events once and delivers them; the attempts made. */
  runOnce(): Promise<DispatchedAttempt[]>;
  /** Claims one event if it is due and delivers it now (ping, redeliver); undefined when not claimable. */
  deliverNow(eventId: string): Promise<DispatchedAttempt | undefined>;
  /** Looks for due events at once instead of at the next poll. */
  wake(): void;
}

/** Attempts per round: the waits of the schedule plus the first attempt (spec, Limits: up to 6). */
export const MAX_WEBHOOK_ATTEMPTS = DEFAULT_RETRY_SCHEDULE_SECONDS.length + 1;

/**
 * The webhook dispatcher: claims due events from the outbox (`FOR UPDATE SKIP LOCKED` plus a
 * lease, so any number of dispatchers in any number of processes share the work and never send
 * the same attempt), delivers each signed, records every attempt with its result and the next due
 * time, and marks an event failed after the last attempt of its round. `incasso serve` runs one in
 * the server; `incasso worker` runs one on its own.
 *
 * @example
 * import { openStore } from "@incasso/store-sql";
 * import { createWebhookDispatcher } from "@incasso/app";
 * const dispatcher = createWebhookDispatcher({ store: await openStore({ databaseUrl: process.env.DATABASE_URL }) });
 * dispatcher.start();
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const store = options.store;
  const owner = options.owner ?? `dsp_${randomBytes(6).toString("hex")}`;
  const now = options.now ?? (() => new Date());
  const schedule = checkRetrySchedule(options.scheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS);
  const maxAttempts = schedule.length + 1;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? 60;
  if (leaseSeconds * 1000 < timeoutMs + 5000) {
    // A lease that can run out while its attempt is still allowed to run would let a second
    // dispatcher start the next attempt before the first one's result is known.
    throw new TypeError("leaseSeconds must exceed the time-out by at least 5 seconds.");
  }
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const logger = options.logger;
  const allowPrivateTargets = options.allowPrivateTargets ?? allowPrivateWebhookTargets(undefined);
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: concurrency }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: concurrency }),
  };
  const abort = new AbortController();
  // Every attempt in flight listens on this one signal; up to `concurrency` listeners is expected.
  setMaxListeners(0, abort.signal);

  async function deliver(claimed: ClaimedDelivery): Promise<DispatchedAttempt | undefined> {
    const { event, endpoint } = claimed;
    const result: WebhookAttemptResult = endpoint
      ? await deliverWebhook({
          url: endpoint.url,
          secret: endpoint.secret,
          payload: event.payload,
          eventType: event.type,
          timestamp: Math.floor(now().getTime() / 1000),
          timeoutMs,
          agents,
          signal: abort.signal,
          ...(allowPrivateTargets ? { allowPrivateTargets: true } : {}),
          ...(options.lookup ? { lookup: options.lookup } : {}),
        })
      : claimed.endpointError !== undefined
        ? {
            // The endpoint exists but its secret cannot be read (INCASSO_SECRET_KEY lacks its key):
            // nothing can be signed; the schedule retries, so adding the key brings it back.
            outcome: "failed",
            statusCode: null,
            durationMs: 0,
            failure: "secret_unavailable",
            error: `secret_unavailable: ${claimed.endpointError}`,
          }
        : {
            outcome: "failed",
            statusCode: null,
            durationMs: 0,
            failure: "no_endpoint",
            error: "no_endpoint: the organisation has no webhook endpoint",
          };
    // A stop with `abandon` behaves like a crash: nothing is recorded, the lease runs out.
    if (abort.signal.aborted) return undefined;
    const finishedAt = now();
    const next =
      result.outcome === "delivered" ? null : nextAttemptAt(claimed.attemptInRound, finishedAt, schedule);
    const recorded = await store.outbox.finish({
      eventId: event.id,
      attempt: claimed.attempt,
      owner,
      now: finishedAt,
      outcome: result.outcome,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      url: endpoint?.url ?? null,
      nextAttemptAt: next,
    });
    const dispatched: DispatchedAttempt = {
      eventId: event.id,
      attempt: claimed.attempt,
      type: event.type,
      url: endpoint?.url ?? null,
      result,
      nextAttemptAt: next,
      recorded,
    };
    if (result.outcome === "failed") {
      logger?.warn("webhook attempt failed", {
        eventId: event.id,
        attempt: claimed.attempt,
        error: result.error,
        nextAttemptAt: next?.toISOString() ?? null,
      });
    }
    options.onAttempt?.(dispatched);
    return dispatched;
  }

  async function claim(limit: number, eventId?: string): Promise<ClaimedDelivery[]> {
    return store.outbox.claim({
      owner,
      now: now(),
      leaseSeconds,
      limit,
      maxAttempts,
      ...(eventId ? { eventId } : {}),
    });
  }

  const loop = createLeaseLoop<ClaimedDelivery, DispatchedAttempt>({
    claim: (limit) => claim(limit),
    work: deliver,
    concurrency,
    // Attempts mostly wait on the network: claim again once half the slots are free, so claims
    // stay batched.
    refillAt: concurrency / 2,
    pollIntervalMs,
    onClaimError: (error) => logger?.error("webhook claim failed", { error: String(error) }),
    onWorkError: (c, error) =>
      logger?.error("webhook attempt could not be recorded", { eventId: c.event.id, error: String(error) }),
  });

  return {
    owner,
    get running() {
      return loop.running;
    },
    start() {
      loop.start();
    },
    async stop(stopOptions = {}) {
      if (stopOptions.abandon) abort.abort();
      await loop.stop();
      agents.http.destroy();
      agents.https.destroy();
    },
    runOnce: () => loop.runOnce(),
    async deliverNow(eventId) {
      const [claimed] = await claim(1, eventId);
      return claimed ? loop.track(deliver(claimed)) : undefined;
    },
    wake: () => loop.wake(),
  };
}
