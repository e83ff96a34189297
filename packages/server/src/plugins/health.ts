import { z } from "zod";
import { ApiError } from "../api-error.js";
import type { Logger } from "../create-api.js";
import { type ApiPlugin, definePlugin, defineRoute, json } from "../plugin.js";

/**
 * What a readiness check found. `checks` name each dependency with a one-word state (`ok`,
 * `running`, `off`, `failing`, …); `details` carry measured numbers (the age of the oldest due
 * outbox event). Both are shown to anyone who asks, so neither may hold a secret, a host name or
 * an error message: the check logs those itself.
 *
 * @example
 * const report: ReadinessReport = { ready: true, checks: { database: "ok" }, details: { outbox_oldest_due_seconds: 0 } };
 */
export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
  details?: Record<string, number | null>;
}

/**
 * Options of the health endpoints (`createApi({ health })`).
 *
 * @example
 * const health: HealthOptions = { readiness: async () => ({ ready: await db.ping(), checks: {} }), timeoutMs: 2000 };
 */
export interface HealthOptions {
  /**
   * Whether the service can take traffic. Default: always ready with no checks, since the kernel
   * itself holds no connection; `createIncasso()` of `@incasso/app` checks the database, the
   * migrations, the workers and the outbox.
   */
  readiness?: () => Promise<ReadinessReport>;
  /** A check that has not answered by then counts as not ready; default 2000 ms. */
  timeoutMs?: number;
  /** Retry-After of a 503; default 5 seconds. */
  retryAfterSeconds?: number;
}

/**
 * The body of GET /healthz.
 *
 * @example
 * LivenessSchema.parse({ status: "ok" });
 */
export const LivenessSchema = z
  .object({ status: z.literal("ok") })
  .meta({ id: "Liveness", description: "The process is alive (no dependency is checked)." });

/**
 * The body of GET /readyz when ready.
 *
 * @example
 * ReadinessSchema.parse({ status: "ready", checks: { database: "ok" }, details: {} });
 */
export const ReadinessSchema = z
  .object({
    status: z.literal("ready"),
    checks: z.record(z.string(), z.string()).describe("Each dependency and its state"),
    details: z.record(z.string(), z.number().nullable()).describe("Measured values, such as ages in seconds"),
  })
  .meta({ id: "Readiness", description: "The service can take traffic." });

/**
 * The problem body of GET /readyz when not ready: the usual problem members plus `checks` and
 * `details`.
 *
 * @example
 * NotReadySchema.parse({ type: "https://incasso.dev/problems/not_ready", title: "Service Unavailable",
 *   status: 503, code: "not_ready", detail: "Not ready: database failing.", checks: { database: "failing" }, details: {} });
 */
export const NotReadySchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(503),
    code: z.literal("not_ready"),
    detail: z.string(),
    checks: z.record(z.string(), z.string()),
    details: z.record(z.string(), z.number().nullable()),
  })
  .meta({ id: "NotReady", description: "The service cannot take traffic now (problem details)." });

const HEALTH_TAG = {
  name: "health",
  description:
    "Liveness and readiness probes at the server's root, beside the versioned API; no key, nothing secret",
};

// Probes must never be stored by a cache between the prober and the service.
const NO_STORE = { "cache-control": "no-store" };

/**
 * GET /healthz (liveness: answers without any I/O) and GET /readyz (readiness: runs the check,
 * 200 when ready, 503 problem+json with Retry-After when not), both at the server's root rather
 * than below the base path (decision server-health-endpoints). A check that throws or does not
 * answer within `timeoutMs` counts as not ready; probes that arrive while a check runs share it.
 *
 * @example
 * const api = createApi({ store, caseSystem, health: { readiness: async () => ({ ready: true, checks: {} }) } });
 * (await api.fetch(new Request("http://localhost/readyz"))).status; // 200
 */
export function healthPlugin(options: HealthOptions = {}, logger?: Logger): ApiPlugin {
  const readiness =
    options.readiness ?? (async (): Promise<ReadinessReport> => ({ ready: true, checks: {} }));
  const timeoutMs = options.timeoutMs ?? 2000;
  const retryAfter = String(options.retryAfterSeconds ?? 5);
  // One check runs at a time, until the check itself settles: probes against a hung database get
  // "timeout" after timeoutMs, but do not start another query each.
  let running: Promise<ReadinessReport> | undefined;

  function check(): Promise<ReadinessReport> {
    running ??= readiness()
      .catch((error: unknown): ReadinessReport => {
        logger?.error("readiness check failed", { error: String(error) });
        return { ready: false, checks: { readiness: "failing" } };
      })
      .finally(() => {
        running = undefined;
      });
    const inFlight = running;
    return new Promise<ReadinessReport>((resolve) => {
      const timer = setTimeout(() => {
        logger?.warn("readiness check timed out", { timeoutMs });
        resolve({ ready: false, checks: { readiness: "timeout" } });
      }, timeoutMs);
      void inFlight.then((report) => {
        clearTimeout(timer);
        resolve(report);
      });
    });
  }

  return definePlugin({
    name: "health",
    tags: [HEALTH_TAG],
    routes: [
      defineRoute({
        method: "GET",
        path: "/healthz",
        root: true,
        operationId: "getLiveness",
        summary: "Liveness: the process answers",
        description: "Touches no database or worker; a failure here means the process should be restarted.",
        tags: ["health"],
        auth: "none",
        responses: { 200: { description: "Alive.", schema: LivenessSchema } },
        handle: () => json({ status: "ok" }, { headers: NO_STORE }),
      }),
      defineRoute({
        method: "GET",
        path: "/readyz",
        root: true,
        operationId: "getReadiness",
        summary: "Readiness: the service can take traffic",
        description:
          "Checks what the service needs to answer requests; a load balancer stops sending requests while this " +
          "answers 503, and sends them again once it answers 200.",
        tags: ["health"],
        auth: "none",
        responses: {
          200: { description: "Ready.", schema: ReadinessSchema },
          503: {
            description: "Not ready; ask again after Retry-After seconds.",
            schema: NotReadySchema,
            headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
          },
        },
        handle: async () => {
          const report = await check();
          const details = report.details ?? {};
          if (!report.ready) {
            const failing = Object.entries(report.checks)
              .filter(([, state]) => !READY_STATES.has(state))
              .map(([name, state]) => `${name} ${state}`);
            throw new ApiError({
              status: 503,
              code: "not_ready",
              detail: `Not ready${failing.length > 0 ? `: ${failing.join(", ")}` : ""}.`,
              // The problem mapper adds Cache-Control: no-store to every problem.
              headers: { "Retry-After": retryAfter },
              extensions: { checks: report.checks, details },
            });
          }
          return json({ status: "ready", checks: report.checks, details }, { headers: NO_STORE });
        },
      }),
    ],
  });
}

/** States that never make a service unready; anything else is named in the 503's detail. */
const READY_STATES = new Set(["ok", "running", "off"]);
