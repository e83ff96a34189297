import type { LetterJobResult } from "@incasso/case-system";
import type { OutboxRepository } from "@incasso/core";
import type { DocumentChecker } from "@incasso/pdf-guard";
import type { CompletedRequest } from "@incasso/server";
import type * as PromClient from "prom-client";
import { optionalModule } from "../internal/optional-module.js";
import type { DispatchedAttempt } from "../webhooks/webhook-dispatcher.js";

// Seconds; from a cached GET to a POST /orders with PDFs near its 120 s budget (spec, Limits).
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const CHECK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The service's Prometheus metrics (decision operations-metrics), in a registry of their own, with
 * the hooks that feed them. `createIncasso({ metrics })` wires the hooks; `incasso serve
 * --metrics-port N` serves {@link IncassoMetrics.text} at GET /metrics on its own port.
 *
 * @example
 * const metrics = createIncassoMetrics();
 * const incasso = await createIncasso(undefined, { metrics });
 * console.log(await metrics.text());
 */
export interface IncassoMetrics {
  readonly registry: PromClient.Registry;
  /** Counts a request: total and latency by route pattern and status, 429s, replays, orders. */
  onResponse(request: CompletedRequest): void;
  /** Counts a webhook delivery attempt by outcome. */
  onAttempt(attempt: DispatchedAttempt): void;
  /** Counts a 14-day letter job attempt by outcome. */
  onLetterJob(result: LetterJobResult): void;
  /** The checker, counted and timed by outcome. */
  instrumentChecker(checker: DocumentChecker): DocumentChecker;
  /** Reads the outbox's depth and the age of its oldest due event at every scrape. */
  watchOutbox(outbox: Pick<OutboxRepository, "oldestDueAt" | "dueCount">, now: () => Date): void;
  /** The Prometheus text exposition of every metric. */
  text(): Promise<string>;
  /** The content type of {@link IncassoMetrics.text}. */
  readonly contentType: string;
}

/**
 * Options of {@link createIncassoMetrics}.
 *
 * @example
 * const options: IncassoMetricsOptions = { defaultMetrics: false };
 */
export interface IncassoMetricsOptions {
  /** prom-client's process and Node metrics (event-loop lag, heap, CPU); default true. */
  defaultMetrics?: boolean;
}

/**
 * Creates the metrics (names in docs/operator.md, "Metrics").
 *
 * @example
 * const metrics = createIncassoMetrics();
 * metrics.onResponse({ requestId: "r", method: "GET", route: "/api/v1/ping", status: 200,
 *   durationMs: 1, keyId: null, keyMode: null, replayed: false, orderCreated: null });
 */
export function createIncassoMetrics(options: IncassoMetricsOptions = {}): IncassoMetrics {
  // An optional dependency: a host that never turns metrics on need not install it.
  const promClient = optionalModule<typeof PromClient>("prom-client");
  if (!promClient) {
    throw new Error(
      "metrics need prom-client, an optional dependency of @incasso/app that is not installed " +
        "(npm install prom-client, or install @incasso/app without --omit=optional)",
    );
  }
  const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = promClient;
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: "incasso_http_requests_total",
    help: "API requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const latency = new Histogram({
    name: "incasso_http_request_duration_seconds",
    help: "Time from a request's arrival to its response headers, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const refusals = new Counter({
    name: "incasso_rate_limit_refusals_total",
    help: "Requests refused with 429 by a rate limit, by route pattern.",
    labelNames: ["route"] as const,
    registers,
  });
  const replays = new Counter({
    name: "incasso_idempotent_replays_total",
    help: "Responses replayed for a repeated Idempotency-Key, by route pattern.",
    labelNames: ["route"] as const,
    registers,
  });
  const orders = new Counter({
    name: "incasso_orders_created_total",
    help: "Orders created by POST /orders (replays not counted), by type and mode.",
    labelNames: ["type", "mode"] as const,
    registers,
  });
  const attempts = new Counter({
    name: "incasso_webhook_delivery_attempts_total",
    help: "Webhook delivery attempts made by this process, by outcome.",
    labelNames: ["outcome"] as const,
    registers,
  });
  const letterJobs = new Counter({
    name: "incasso_letter_job_attempts_total",
    help: "14-day letter job attempts made by this process, by outcome (made, existed, retry, failed).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const checks = new Counter({
    name: "incasso_document_checks_total",
    help: "PDF document checks (attachments against the declared data), by checker and outcome.",
    labelNames: ["checker", "outcome"] as const,
    registers,
  });
  const checkDuration = new Histogram({
    name: "incasso_document_check_duration_seconds",
    help: "Duration of PDF document checks, by checker.",
    labelNames: ["checker"] as const,
    buckets: CHECK_BUCKETS,
    registers,
  });

  return {
    registry,
    contentType: registry.contentType,
    onResponse(r) {
      // A 404 has no route; its raw path is never a label (each id would make a series).
      const route = r.route ?? "unmatched";
      const labels = { method: r.method, route, status: String(r.status) };
      requests.inc(labels);
      latency.observe(labels, r.durationMs / 1000);
      if (r.status === 429) refusals.inc({ route });
      if (r.replayed) replays.inc({ route });
      if (r.orderCreated) orders.inc({ type: r.orderCreated.type, mode: r.orderCreated.mode });
    },
    onAttempt(a) {
      attempts.inc({ outcome: a.result.outcome });
    },
    onLetterJob(result) {
      letterJobs.inc({ outcome: result.outcome });
    },
    instrumentChecker(checker) {
      return {
        name: checker.name,
        async check(input, context) {
          const stop = checkDuration.startTimer({ checker: checker.name });
          try {
            const warnings = await checker.check(input, context);
            checks.inc({ checker: checker.name, outcome: warnings.length === 0 ? "ok" : "warnings" });
            return warnings;
          } catch (error) {
            checks.inc({ checker: checker.name, outcome: "error" });
            throw error;
          } finally {
            stop();
          }
        },
      };
    },
    watchOutbox(outbox, now) {
      new Gauge({
        name: "incasso_outbox_due_events",
        help: "Webhook events due for delivery now (pending and due, or under a lease that ran out).",
        registers,
        async collect() {
          this.set(await outbox.dueCount(now()));
        },
      });
      new Gauge({
        name: "incasso_outbox_oldest_due_age_seconds",
        help: "Seconds since the longest-waiting due webhook event became due; 0 when none is due.",
        registers,
        async collect() {
          const at = now();
          const due = await outbox.oldestDueAt(at);
          this.set(due ? Math.max(0, (at.getTime() - due.getTime()) / 1000) : 0);
        },
      });
    },
    text: () => registry.metrics(),
  };
}
