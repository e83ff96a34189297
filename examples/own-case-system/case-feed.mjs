// What the agency's handlers did, carried back to the API: the host reads the case service's change
// feed and reports each change through createCaseReporter (@incasso/case-system), which writes the
// control request's outcome and the spec's webhook event through the transactional outbox, so the
// webhook dispatcher signs and sends it (docs/decisions/case-system-host-reports.md).

/** Reporter errors that no retry can mend: the change is logged and skipped. */
const PERMANENT = new Set(["task_not_found", "task_not_open", "order_not_on_case"]);

/**
 * Polls `GET /events` of the case service every `intervalMs` (default 500), reports each change and
 * acknowledges it afterwards. A change is acknowledged only once reported, so none is lost when the
 * host stops in between; one reported but not yet acknowledged is reported again after a restart
 * (at least once: a task outcome is then unchanged, a case event is sent twice).
 *
 * @param {{ baseUrl: string, reporter: import("@incasso/case-system").CaseReporter, intervalMs?: number,
 *   logger?: { warn(message: string, fields?: Record<string, unknown>): void } }} options
 * @returns {{ pump(): Promise<number>, stop(): Promise<void> }}
 */
export function startCaseFeed(options) {
  const base = options.baseUrl.replace(/\/$/, "");
  const logger = options.logger ?? { warn: (message, fields) => console.warn(message, fields ?? {}) };
  let running = Promise.resolve(0);
  let stopped = false;

  async function report(event) {
    try {
      if (event.kind === "task_resolved") {
        await options.reporter.taskOutcome({
          organisationId: event.organisation_id,
          taskId: event.task_id,
          outcome: event.outcome,
          note: event.note,
        });
      } else {
        await options.reporter.caseEvent({
          organisationId: event.organisation_id,
          orderId: event.order_id,
          kind: event.kind,
          caseEvent: event.case_event,
        });
      }
    } catch (error) {
      if (!PERMANENT.has(/** @type {{ code?: string }} */ (error).code ?? "")) throw error;
      logger.warn("case feed: change skipped", { seq: event.seq, error: String(error) });
    }
  }

  async function once() {
    const res = await fetch(`${base}/events`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`GET /events: HTTP ${res.status}`);
    const { events } = await res.json();
    for (const event of events) {
      await report(event);
      await fetch(`${base}/events/ack`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ seq: event.seq }),
        signal: AbortSignal.timeout(5000),
      });
    }
    return events.length;
  }

  // One pump at a time: a timer tick and a caller's pump() never report the same change twice.
  const pump = () => {
    running = running.catch(() => 0).then(once);
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) pump().catch((error) => logger.warn("case feed: poll failed", { error: String(error) }));
  }, options.intervalMs ?? 500);

  return {
    pump,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running.catch(() => 0);
    },
  };
}
