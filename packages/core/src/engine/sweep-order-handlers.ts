import type { Logger } from "../logger.js";
import type { IncassoStore, PendingHandlerRun } from "../store-port.js";
import { toOrderAction } from "./internal/order-action-view.js";
import { toOrder } from "./internal/order-views.js";
import { startPeriodicPass } from "./internal/periodic-pass.js";
import { runAfterHandlers } from "./order-handlers.js";
import type { OrderHooks } from "./order-hooks.js";
import { type ResolvedOrderHooks, resolveOrderHooks } from "./order-rules.js";

/**
 * How old a pending handler run must be before the sweeper runs it again: well past the time a
 * process takes to run its handlers after the row is stored, so a sweeper seldom runs what the
 * process that stored the row is still running (decision orders-host-hooks).
 *
 * @example
 * await sweepPendingHandlers({ store, hooks, logger, graceMs: HANDLER_GRACE_MS });
 */
export const HANDLER_GRACE_MS = 5 * 60_000;

/**
 * How often {@link startHandlerSweeper} looks, after its first look at start.
 *
 * @example
 * startHandlerSweeper({ store, hooks, logger, intervalMs: HANDLER_SWEEP_INTERVAL_MS / 2 });
 */
export const HANDLER_SWEEP_INTERVAL_MS = 60_000;

/**
 * What {@link sweepPendingHandlers} works with: the store, the host's hooks (as given to
 * `createApi`, one set or several) and where to log.
 *
 * @example
 * const parts: HandlerSweeperParts = { store, hooks: [agency.orderHooks], logger };
 */
export interface HandlerSweeperParts {
  store: Pick<IncassoStore, "pendingHandlers" | "orders">;
  hooks: OrderHooks | readonly OrderHooks[] | undefined;
  logger: Pick<Logger, "warn">;
  /** The clock; default the system clock. */
  now?: () => Date;
  /** Default {@link HANDLER_GRACE_MS}; also the time a swept run's handlers get to settle. */
  graceMs?: number;
  /** Runs per call; default 100. */
  limit?: number;
  /**
   * Ends the wait for the claimed runs' handlers (a process that stops): their runs stay claimed
   * and are swept again once the claim is older than the grace period, so nothing is lost and a
   * hung handler never holds up a shutdown.
   */
  signal?: AbortSignal;
}

/**
 * Runs the handlers of stored orders and control requests whose run never settled (the process
 * stopped between the row and the end of its handlers): claims each run older than the grace
 * period, runs the handlers with `replayed: true`, and removes the run once they settled, or once
 * the grace period passed without them settling (it is logged and not run a third time). A run of
 * a kind this process has no handlers for is left for one that has. Several processes may sweep at
 * once: each run is claimed by one. A row that is gone (erased) has its run removed.
 *
 * @example
 * const { ran } = await sweepPendingHandlers({ store, hooks: agency.orderHooks, logger });
 */
export async function sweepPendingHandlers(
  parts: HandlerSweeperParts,
): Promise<{ ran: number; gone: number }> {
  const hooks = resolveOrderHooks(parts.hooks);
  const kinds: PendingHandlerRun["kind"][] = [
    ...(hooks.orderPlaced.length > 0 ? (["order"] as const) : []),
    ...(hooks.actionRequested.length > 0 ? (["action"] as const) : []),
  ];
  const counts = { ran: 0, gone: 0 };
  if (kinds.length === 0 || parts.signal?.aborted) return counts;
  const now = (parts.now ?? (() => new Date()))();
  const graceMs = parts.graceMs ?? HANDLER_GRACE_MS;
  const before = new Date(now.getTime() - graceMs);
  const runs = await parts.store.pendingHandlers.claimStale(before, now, parts.limit ?? 100, kinds);
  // Every claimed run starts at once and gets the same time to settle, so no claim of the batch
  // grows older than the grace period while an earlier run is awaited (another sweeper would
  // claim it again).
  const deadline = expiry(graceMs);
  const stopping = stopped(parts.signal);
  await Promise.all(
    runs.map(async (run) => {
      const started = await startRun(parts, hooks, run);
      if (started === undefined) {
        counts.gone++;
      } else {
        counts.ran++;
        const outcome = await Promise.race([
          started.settled.then(() => "settled" as const),
          deadline.passed,
          stopping.promise,
        ]);
        // The process stops: the run stays claimed and is swept again after the grace period.
        if (outcome === "stopped") return;
        if (outcome === "late") {
          parts.logger.warn("pending handlers did not settle in time; they are not run again", {
            orderId: run.orderId,
            ...(run.kind === "action" ? { actionId: run.id } : {}),
          });
        }
      }
      await parts.store.pendingHandlers.remove(run.kind, run.id);
    }),
  ).finally(() => {
    deadline.clear();
    stopping.clear();
  });
  return counts;
}

// Starts the handlers of one claimed run (wrapped: an async function's returned promise would be
// awaited), or returns undefined when its row is gone.
async function startRun(
  parts: HandlerSweeperParts,
  hooks: ResolvedOrderHooks,
  run: PendingHandlerRun,
): Promise<{ settled: Promise<void> } | undefined> {
  const { principal } = run;
  const order = await parts.store.orders.findById(run.organisationId, run.orderId);
  if (order === undefined) return undefined;
  if (run.kind === "order") {
    return {
      settled: runAfterHandlers(
        hooks.orderPlaced,
        { order: toOrder(order), principal, replayed: true },
        parts.logger,
        "order handler",
        { orderId: order.id },
      ),
    };
  }
  const actions = await parts.store.orders.listActions(run.organisationId, run.orderId);
  const stored = actions.find((a) => a.id === run.id);
  if (stored === undefined || order.caseNumber === null) return undefined;
  const action = toOrderAction(stored, order.caseNumber);
  return {
    settled: runAfterHandlers(
      hooks.actionRequested,
      { action, orderId: order.id, principal, replayed: true },
      parts.logger,
      "control request handler",
      { orderId: order.id, action: action.action },
    ),
  };
}

// A promise that resolves "late" once `ms` passed, and a way to drop its timer.
function expiry(ms: number): { passed: Promise<"late">; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
    timer.unref?.();
  });
  return { passed, clear: () => clearTimeout(timer) };
}

// A promise that resolves "stopped" once the signal aborts (never without one), and a way to stop
// listening.
function stopped(signal: AbortSignal | undefined): { promise: Promise<"stopped">; clear: () => void } {
  if (signal === undefined) return { promise: new Promise(() => {}), clear: () => {} };
  let listener: (() => void) | undefined;
  const promise = new Promise<"stopped">((resolve) => {
    listener = () => resolve("stopped");
    if (signal.aborted) resolve("stopped");
    else signal.addEventListener("abort", listener, { once: true });
  });
  return { promise, clear: () => listener && signal.removeEventListener("abort", listener) };
}

/**
 * A running handler sweeper.
 *
 * @example
 * const sweeper = startHandlerSweeper({ store, hooks, logger });
 * await sweeper.stop();
 */
export interface HandlerSweeper {
  /**
   * Stops: a pass in progress stops waiting for handlers that have not settled (their runs are
   * swept again later, see {@link HandlerSweeperParts.signal}) and is awaited.
   */
  stop(): Promise<void>;
}

/**
 * Runs {@link sweepPendingHandlers} at once and then every `intervalMs` (default
 * {@link HANDLER_SWEEP_INTERVAL_MS}) until stopped; `createIncasso` runs one when the host has
 * handlers, and a host that composes `createApi` itself starts one beside it. The timer does not
 * keep the process alive.
 *
 * @example
 * const sweeper = startHandlerSweeper({ store, hooks: agency.orderHooks, logger });
 * process.once("SIGTERM", () => void sweeper.stop());
 */
export function startHandlerSweeper(parts: HandlerSweeperParts & { intervalMs?: number }): HandlerSweeper {
  return startPeriodicPass((signal) => sweepPendingHandlers({ ...parts, signal }), {
    intervalMs: parts.intervalMs ?? HANDLER_SWEEP_INTERVAL_MS,
    onError: (error) =>
      parts.logger.warn("handler sweeper could not look for pending handlers", {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
}
